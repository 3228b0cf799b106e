import type { SearchGroup } from '../manifest.ts';

/**
 * The `certificates` group of GET /search: certificates by number or by their holder's name or
 * email, by id (ADR 0025: by number, a year's certificates would all be sorted to show ten).
 */
export const certificateSearch: SearchGroup = {
  name: 'certificates',
  scopes: ['certificates:read', 'students:read'],
  columns: ['certificate_number'],
  order: 'id',
  matches: ({ db, match, student }) =>
    db
      .selectFrom('certificates')
      .select(['certificates.id', 'certificates.certificate_number'])
      .where((eb) => eb.or([match('certificates'), student('certificates.user_id')])),
  details: (page) =>
    page
      .innerJoin('certificates', 'certificates.id', 'page.id')
      .innerJoin('users', 'users.id', 'certificates.user_id')
      .innerJoin('courses', 'courses.id', 'certificates.course_id')
      .select(['page.certificate_number', 'certificates.status', 'users.name as holder_name', 'courses.slug as course']),
  hit: (row: { id: number; certificate_number: string; status: string; holder_name: string; course: string }) => ({
    id: row.id,
    type: 'certificate',
    title: row.certificate_number,
    path: `/api/v1/certificates/${row.id}`,
    holder_name: row.holder_name,
    course: row.course,
    status: row.status,
  }),
};
