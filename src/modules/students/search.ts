import type { SearchGroup } from '../../platform/module.ts';
import { searchStudents } from './repository.ts';

/** The `students` group of GET /search: students by name or email. */
export const studentSearch: SearchGroup = {
  name: 'students',
  async search(platform, { q, limit, users }) {
    const { total, rows } = await searchStudents(platform.database.db, platform.database.dialect, q, limit, users ? await users() : null);
    return {
      total,
      items: rows.map((row) => ({ id: row.id, type: 'student', title: row.name, path: `/api/v1/students/${row.id}`, email: row.email })),
    };
  },
};
