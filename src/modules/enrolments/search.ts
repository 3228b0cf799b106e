import type { SearchGroup } from '../../platform/module.ts';
import { searchEnrolments } from './repository.ts';

/** The `enrolments` group of GET /search: enrolments by the student's name or email, or the course's title, code or slug. */
export const enrolmentSearch: SearchGroup = {
  name: 'enrolments',
  async search(platform, { q, limit, users }) {
    const { total, rows } = await searchEnrolments(platform.database.db, platform.database.dialect, q, limit, users ? await users() : null);
    return {
      total,
      items: rows.map((row) => ({
        id: row.id,
        type: 'enrolment',
        title: `${row.student_name}, ${row.course_title}`,
        path: `/api/v1/enrolments/${row.id}`,
        student_id: row.user_id,
        course: row.course,
        session_id: row.session_id,
        status: row.status,
      })),
    };
  },
};
