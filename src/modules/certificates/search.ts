import type { SearchGroup } from '../../platform/module.ts';
import { searchCertificates } from './repository.ts';

/** The `certificates` group of GET /search: certificates by number or holder. */
export const certificateSearch: SearchGroup = {
  name: 'certificates',
  async search(platform, { q, limit, users }) {
    const { total, rows } = await searchCertificates(
      platform.database.db,
      platform.database.dialect,
      q,
      limit,
      users ? await users() : null,
    );
    return {
      total,
      items: rows.map((row) => ({
        id: row.id,
        type: 'certificate',
        title: row.certificate_number,
        path: `/api/v1/certificates/${row.id}`,
        holder_name: row.holder_name,
        course: row.course,
        status: row.status,
      })),
    };
  },
};
