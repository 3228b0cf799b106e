import { type Expression, type ExpressionBuilder, type Kysely, type Selectable, type SqlBool, sql } from 'kysely';
import { bool } from '../../db/codec.ts';
import type { Dialect } from '../../db/database.ts';
import { type ListRequest, listPage, type Page } from '../../db/list.ts';
import { executePrepared, idIn } from '../../db/prepared.ts';
import type { DB, UserTable } from '../../db/schema.ts';
import {
  type MatchingUsers,
  matchesInIdOrder,
  matchOrderColumn,
  type SearchRows,
  searchRows,
  searchText,
  textMatch,
  userIn,
} from '../../db/search.ts';
import { keptTotals } from '../../db/totals.ts';
import type { StudentSort, StudentStatus } from './schemas.ts';

/** The user columns a student shows, decoded (`email_verified` a boolean on both databases). */
export interface StudentRow {
  id: number;
  name: string;
  email: string;
  email_verified: boolean;
  created_at: string;
  updated_at: string;
}

/** A user as the student commands need it, whether or not it is a student yet. */
export type UserRow = StudentRow & { is_admin: boolean };

export interface StudentFilter {
  /** Lowercased text the name or email contains. */
  search?: string | undefined;
  status?: StudentStatus | undefined;
}

export interface NewUser {
  name: string;
  /** Lowercased. */
  email: string;
  email_verified: boolean;
  now: string;
}

const COLUMNS = ['users.id', 'users.name', 'users.email', 'users.email_verified', 'users.created_at', 'users.updated_at'] as const;

const decode = (
  row: Pick<Selectable<UserTable>, 'id' | 'name' | 'email' | 'email_verified' | 'created_at' | 'updated_at'>,
): StudentRow => ({
  id: row.id,
  name: row.name,
  email: row.email,
  email_verified: bool(row.email_verified),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/**
 * A student is a user who is not staff and has at least one course application. `not is_admin`
 * rather than `is_admin = false`: SQLite would otherwise read the staff index (is_admin, status) for
 * the 100,000 students and sort them all for a page, instead of walking the ids and stopping at it.
 */
function isStudent(eb: ExpressionBuilder<DB, 'users'>): Expression<SqlBool> {
  return eb.and([
    sql<SqlBool>`not ${sql.ref('users.is_admin')}`,
    eb.exists(eb.selectFrom('course_applications').select(sql`1`.as('one')).whereRef('course_applications.user_id', '=', 'users.id')),
  ]);
}

export function createStudentRepository(db: Kysely<DB>, dialect: Dialect) {
  // Counting students tests every matching user for an application: 100,000 of them without a filter.
  const totals = keptTotals(db, dialect);
  return {
    list: async (filter: StudentFilter, list: ListRequest<StudentSort>): Promise<Page<StudentRow>> => {
      // The same indexed match as the users group of GET /search (src/db/search.ts, ADR 0009); a
      // page in id order reads the matches in that order where the index can (SQLite).
      const search = filter.search === undefined ? '' : searchText(filter.search);
      const inIdOrder = search && list.sort === 'id' ? matchesInIdOrder(db, dialect, 'users', search) : null;
      let query = (inIdOrder ?? db.selectFrom('users')).select(COLUMNS).where(isStudent);
      if (search && !inIdOrder) query = query.where(textMatch(dialect, 'users', search));
      const id = inIdOrder ? matchOrderColumn('users') : 'users.id';
      if (filter.status !== undefined) query = query.where('users.email_verified', '=', filter.status === 'verified');
      const page = await listPage(
        query,
        list,
        {
          sort: {
            id,
            name: 'users.name',
            email: 'users.email',
            created_at: 'users.created_at',
            updated_at: 'users.updated_at',
          },
          id,
          updatedAt: 'users.updated_at',
        },
        { kept: totals },
      );
      return { items: page.items.map(decode), total: page.total };
    },

    findStudent: async (id: number): Promise<StudentRow | undefined> => {
      const row = await db.selectFrom('users').select(COLUMNS).where('users.id', '=', id).where(isStudent).executeTakeFirst();
      return row && decode(row);
    },

    /** The slugs of the courses each user applied to, alphabetically. */
    coursesOf: async (userIds: readonly number[]): Promise<Map<number, string[]>> => {
      const courses = new Map<number, string[]>(userIds.map((id) => [id, []]));
      if (userIds.length === 0) return courses;
      // One text and one plan per connection whatever the page's size (a page costs PostgreSQL more
      // to plan than to run).
      const rows = await executePrepared(
        db,
        db
          .selectFrom('course_applications')
          .innerJoin('courses', 'courses.id', 'course_applications.course_id')
          .select(['course_applications.user_id', 'courses.slug'])
          .where(idIn(dialect, 'course_applications.user_id', userIds))
          .orderBy('courses.slug')
          .compile(),
      );
      for (const row of rows) courses.get(row.user_id)?.push(row.slug);
      return courses;
    },

    findUser: async (executor: Kysely<DB>, id: number): Promise<UserRow | undefined> => {
      const row = await executor
        .selectFrom('users')
        .select([...COLUMNS, 'users.is_admin'])
        .where('users.id', '=', id)
        .executeTakeFirst();
      return row && { ...decode(row), is_admin: bool(row.is_admin) };
    },

    /** Users by their (lowercased) emails. */
    findUsersByEmail: async (executor: Kysely<DB>, emails: readonly string[]): Promise<UserRow[]> => {
      if (emails.length === 0) return [];
      const rows = await executor
        .selectFrom('users')
        .select([...COLUMNS, 'users.is_admin'])
        .where('users.email', 'in', [...emails])
        .execute();
      return rows.map((row) => ({ ...decode(row), is_admin: bool(row.is_admin) }));
    },

    /**
     * Inserts the users whose email is not taken yet and returns those it inserted. A concurrent
     * insert of the same email (another import) makes this one skip it rather than fail.
     */
    insertUsers: async (trx: Kysely<DB>, users: readonly NewUser[]): Promise<UserRow[]> => {
      if (users.length === 0) return [];
      const rows = await trx
        .insertInto('users')
        .values(
          users.map((user) => ({
            name: user.name,
            email: user.email,
            email_verified: user.email_verified,
            status: 'active',
            is_admin: false,
            permissions: '[]',
            created_at: user.now,
            updated_at: user.now,
          })),
        )
        .onConflict((oc) => oc.column('email').doNothing())
        .returning(['id', 'name', 'email', 'email_verified', 'created_at', 'updated_at', 'is_admin'])
        .execute();
      return rows.map((row) => ({ ...decode(row), is_admin: bool(row.is_admin) }));
    },

    /** Marks users changed (a new application changes the student's `courses`). */
    touch: async (trx: Kysely<DB>, ids: readonly number[], now: string): Promise<void> => {
      if (ids.length === 0) return;
      await trx
        .updateTable('users')
        .set({ updated_at: now })
        .where('id', 'in', [...ids])
        .execute();
    },
  };
}

export type StudentRepository = ReturnType<typeof createStudentRepository>;

/** Students whose name or email contains `text` (GET /search), by name. */
export function searchStudents(
  db: Kysely<DB>,
  dialect: Dialect,
  text: string,
  limit: number,
  users: MatchingUsers = null,
): Promise<SearchRows<{ id: number; name: string; email: string }>> {
  if (users?.length === 0) return Promise.resolve({ total: 0, rows: [] });
  const query = db
    .selectFrom('users')
    .select(['users.id', 'users.name', 'users.email'])
    .where(isStudent)
    .where(users === null ? textMatch(dialect, 'users', text) : userIn(dialect, 'users.id', text, users));
  return searchRows(db, query, { limit, order: 'name' });
}
