import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/**
 * What a student's page and the certificates' list show beside the services' records, each read in
 * one statement whatever the number of rows: the names of the sessions of a student's enrolments,
 * their applications with the courses' titles, the holders of a page of certificates. Reading them
 * one record at a time through the services would be a statement per row (an N+1).
 */

/** A student's application to a course, with the course's title. */
export interface ApplicationLine {
  course: string;
  title: string;
  source: string;
  created_at: string;
}

/** A session as an enrolment's line shows it. */
export interface SessionLine {
  id: number;
  name: string;
  starts_on: string;
  ends_on: string;
  workflow_state: string;
  course: string;
  course_title: string;
}

/** At most this many rows of one kind on a page (a student has a handful). */
const MAX_ROWS = 500;

export function studentRecords(db: Kysely<DB>) {
  return {
    /** The student's applications, oldest first. */
    async applicationsOf(userId: number): Promise<ApplicationLine[]> {
      return db
        .selectFrom('course_applications')
        .innerJoin('courses', 'courses.id', 'course_applications.course_id')
        .select(['courses.slug as course', 'courses.title', 'course_applications.source', 'course_applications.created_at'])
        .where('course_applications.user_id', '=', userId)
        .orderBy('course_applications.created_at')
        .orderBy('course_applications.id')
        .limit(MAX_ROWS)
        .execute();
    },

    /** Sessions by id, with their course. */
    async sessions(ids: readonly number[]): Promise<Map<number, SessionLine>> {
      const wanted = [...new Set(ids)].slice(0, MAX_ROWS);
      if (wanted.length === 0) return new Map();
      const rows = await db
        .selectFrom('training_sessions')
        .innerJoin('courses', 'courses.id', 'training_sessions.course_id')
        .select([
          'training_sessions.id',
          'training_sessions.name',
          'training_sessions.starts_on',
          'training_sessions.ends_on',
          'training_sessions.workflow_state',
          'courses.slug as course',
          'courses.title as course_title',
        ])
        .where('training_sessions.id', 'in', wanted)
        .execute();
      return new Map(rows.map((row) => [row.id, row]));
    },

    /** Users' names by id. */
    async names(ids: readonly number[]): Promise<Map<number, string>> {
      const wanted = [...new Set(ids)].slice(0, MAX_ROWS);
      if (wanted.length === 0) return new Map();
      const rows = await db.selectFrom('users').select(['id', 'name']).where('id', 'in', wanted).execute();
      return new Map(rows.map((row) => [row.id, row.name]));
    },
  };
}

export type StudentRecords = ReturnType<typeof studentRecords>;
