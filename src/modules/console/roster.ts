import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { SLUG_PATTERN } from '../courses/schemas.ts';

/** Who a row of a session's enrolments is: the student's name and email. */
export interface Person {
  name: string;
  email: string;
}

/**
 * The names of the people a page of enrolments shows, read in one statement for the whole page
 * (the students service reads one student at a time: a list of 50 enrolments would be 50 more
 * statements). Reads only; every change goes through the services.
 */
export function createRoster(db: Kysely<DB>) {
  return {
    async people(ids: Iterable<number>): Promise<Map<number, Person>> {
      const wanted = [...new Set(ids)];
      if (wanted.length === 0) return new Map();
      const rows = await db.selectFrom('users').select(['id', 'name', 'email']).where('id', 'in', wanted).execute();
      return new Map(rows.map((row) => [row.id, { name: row.name, email: row.email }]));
    },
  };
}

export type Roster = ReturnType<typeof createRoster>;

/** A course's sessions on the console. */
export const sessionsPath = (slug: string) => `/console/courses/${slug}/sessions`;

/** A session's page on the console. */
export const sessionPath = (slug: string, id: number) => `${sessionsPath(slug)}/${id}`;

/** An enrolment's page of actions under its session (`cancel`, `complete`). */
export const enrolmentPath = (slug: string, sessionId: number, id: number, action: 'cancel' | 'complete') =>
  `${sessionPath(slug, sessionId)}/enrolments/${id}/${action}`;

/** A slug from a path, or the 404 of a malformed one (as the API answers). */
export function slugOf(value: string): string {
  if (value.length > 100 || !new RegExp(SLUG_PATTERN).test(value)) throw new NotFoundError();
  return value;
}

/** An id from a path, or the 404 of a malformed one (as the API answers). */
export function idOf(value: string): number {
  if (!/^[1-9][0-9]{0,9}$/.test(value) || Number(value) > 2_147_483_647) throw new NotFoundError();
  return Number(value);
}

/**
 * A whole number typed in a form, as the schema should see it: a number when it is one (so that a
 * range is checked), else the text itself (so that the schema says it must be a whole number), and
 * nothing for an empty field.
 */
export function wholeNumberOf(text: string | undefined): number | string | undefined {
  const value = (text ?? '').trim();
  if (value === '') return undefined;
  return /^[+-]?[0-9]{1,15}$/.test(value) ? Number(value) : value;
}

/** The `name` of the people map, or a stand-in for a person no longer found. */
export function nameOf(people: Map<number, Person>, id: number): string {
  return people.get(id)?.name ?? `Student ${id}`;
}
