import type { SearchGroup } from '../manifest.ts';

/**
 * The `enrolments` group of GET /search: enrolments by the student's name or email, or the course's
 * title, code or slug, by id. Each way is read through its own index (the students' enrolments
 * through `enrolments (user_id, id)`, a course's through its sessions), so that neither turns into a
 * scan of every enrolment; only the page's rows are joined. The student comes first: an enrolment
 * found through its course is told apart from those found through its student by reading the
 * student's row, which costs less than listing the course's sessions again for each enrolment.
 */
export const enrolmentSearch: SearchGroup = {
  name: 'enrolments',
  scopes: ['enrolments:read', 'students:read', 'courses:read'],
  columns: [],
  order: 'id',
  matches: ({ db, match, student }) =>
    db
      .selectFrom('enrolments')
      .select('enrolments.id')
      .where((eb) =>
        eb.or([
          student('enrolments.user_id'),
          eb(
            'enrolments.session_id',
            'in',
            db
              .selectFrom('training_sessions')
              .select('training_sessions.id')
              .where('training_sessions.course_id', 'in', db.selectFrom('courses').select('courses.id').where(match('courses'))),
          ),
        ]),
      ),
  details: (page) =>
    page
      .innerJoin('enrolments', 'enrolments.id', 'page.id')
      .innerJoin('users', 'users.id', 'enrolments.user_id')
      .innerJoin('training_sessions', 'training_sessions.id', 'enrolments.session_id')
      .innerJoin('courses', 'courses.id', 'training_sessions.course_id')
      .select([
        'enrolments.status',
        'enrolments.user_id',
        'users.name as student_name',
        'enrolments.session_id',
        'courses.slug as course',
        'courses.title as course_title',
      ]),
  hit: (row: {
    id: number;
    status: string;
    user_id: number;
    student_name: string;
    session_id: number;
    course: string;
    course_title: string;
  }) => ({
    id: row.id,
    type: 'enrolment',
    title: `${row.student_name}, ${row.course_title}`,
    path: `/api/v1/enrolments/${row.id}`,
    student_id: row.user_id,
    course: row.course,
    session_id: row.session_id,
    status: row.status,
  }),
};
