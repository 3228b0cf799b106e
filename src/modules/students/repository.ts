import {
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type RawBuilder,
  type Selectable,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import { bool } from '../../db/codec.ts';
import type { Dialect } from '../../db/database.ts';
import { rowEstimate } from '../../db/estimate.ts';
import {
  builtOnce,
  type Direction,
  type ListColumns,
  type ListRequest,
  listPage,
  mapPage,
  type Page,
  pageAndTotal,
} from '../../db/list.ts';
import type { DB, UserTable } from '../../db/schema.ts';
import { matchesInIdOrder, matchOrderColumn, searchText, textMatch, textScan } from '../../db/search.ts';
import { marksTable } from '../../db/student-marks.ts';
import { mayLieInTerms, notInEarlierTerms, termOf } from '../../db/student-terms.ts';
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

/** A student as the API shows it: with the slugs of the courses it applied to, alphabetically. */
export type StudentWithCourses = StudentRow & { courses: string[] };

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
 * A student is a user who is not staff and has at least one course application: `users.is_student`,
 * set by a trigger when the first application is inserted (migration 0027, ADR 0024), so that the
 * test is a column of the row, and the students' own indexes (one per order of the list, partial on
 * this condition) serve their pages and counts.
 */
const STUDENT = sql<SqlBool>`${sql.ref('users.is_student')} and not ${sql.ref('users.is_admin')}`;

export function isStudent(_eb?: ExpressionBuilder<DB, 'users'>): Expression<SqlBool> {
  return STUDENT;
}

/** Whether user `id` is a student (`isStudent`), read through `executor`. */
export async function studentExists(executor: Kysely<DB>, id: number): Promise<boolean> {
  const row = await executor.selectFrom('users').select('users.id').where('users.id', '=', id).where(isStudent).executeTakeFirst();
  return row !== undefined;
}

/**
 * The slugs of the courses a user applied to, as a column of the user's row: read with the page
 * instead of by a statement of their own (on PostgreSQL a round trip, which costs both processes
 * more than this subquery does). JSON text on both (pg's parser of array literals allocated more
 * than the rest of the request). Unordered: `withCourses` sorts them, by code point on both
 * databases (SQLite sorted each user's slugs in a temporary B-tree of its own, 2 µs per row).
 */
function coursesColumn(dialect: Dialect, user = 'users.id') {
  const slugs =
    dialect === 'postgres'
      ? // Each application's course looked up by its key: as a join, PostgreSQL hashed all the
        // courses again for each user of the page.
        sql`(select coalesce(json_agg(slug), '[]') from (select (select courses.slug from courses where courses.id = applied.course_id) as slug from course_applications as applied where applied.user_id = ${sql.ref(user)}) as slugs)`
      : sql`(select json_group_array(courses.slug) from course_applications as applied join courses on courses.id = applied.course_id where applied.user_id = ${sql.ref(user)})`;
  return slugs.as('courses');
}

/** A page's row as read: the user's columns and its courses' slugs as JSON text. */
type StudentPageRow = Parameters<typeof decode>[0] & { courses: unknown };

function withCourses(row: StudentPageRow): StudentWithCourses {
  const courses = JSON.parse(row.courses as string) as string[];
  return { ...decode(row), courses: courses.length > 1 ? courses.sort() : courses };
}

/** The columns of a page of `student_terms` ranges (`termList`): the compound's own, unqualified. */
const TERM_COLUMNS = {
  sort: { id: 'id', name: 'name', email: 'email', created_at: 'created_at', updated_at: 'updated_at' },
  id: 'id',
} satisfies ListColumns<StudentSort>;

/** Students are counted per range of this many ids (`student_counts`, migration 0027). */
const STUDENT_ID_RANGE = 4096;

/** The most users a page may test one by one, walking the ids, before an index lookup is cheaper. */
const WALK_ROWS = 5000;

/**
 * PostgreSQL, a search in id or date order: beyond this many users to test on the way to the page
 * (by the last total), its matches are found through the index and sorted (`matchesFirst`); below,
 * the planner's walk of the order's index finds the page sooner (16,767 matches of a million: 7 ms
 * walking, 35 ms sorting them).
 */
const FENCE_ROWS = 50_000;

/**
 * The students' reads and writes. `readers`: SQLite's reader threads (`Database.readers`), on which
 * the pages of the list and their counts are read beside the main thread.
 */
export function createStudentRepository(db: Kysely<DB>, dialect: Dialect, readers: Kysely<DB> | null = null) {
  // Counting students tests every matching user for an application: 100,000 of them without a filter.
  const totals = keptTotals(db, dialect);
  const users = rowEstimate(db, dialect, 'users');

  /**
   * Whether walking the ids to the end of the page tests few users: about (offset + size) × users /
   * matches of them, by the filter's last total (unknown: no). Not with `updated_since`, whose
   * filter the kept totals know under another text.
   */
  async function walksFew(students: SelectQueryBuilder<DB, any, any>, list: ListRequest<StudentSort>, rows = WALK_ROWS): Promise<boolean> {
    if (list.updatedSince !== undefined) return false;
    const matches = totals.hint(students);
    if (!matches) return false;
    return ((list.page.offset + list.page.perPage) * (await users())) / matches <= rows;
  }

  /**
   * PostgreSQL, a search: whether its page is read from the matches the
   * trigram index finds, then sorted, rather than by walking the order's index and testing each
   * student. The planner chose the walk for a page of 100 of "lena ahmed" by email (expecting 3,049
   * matches spread evenly, finding 553 that share a name and so lie together in that order): 650 ms
   * alone, 14 s under load. Names and emails begin with the names searched for, so in those orders
   * the matches always lie together; in id or date order they are spread, and a walk that tests few
   * students (`walksFew`) is left to the planner (in id order, to the prepared walk).
   */
  async function matchesFirst(students: SelectQueryBuilder<DB, any, any>, list: ListRequest<StudentSort>): Promise<boolean> {
    if (list.sort === 'name' || list.sort === 'email') {
      // Unless most students match (a letter or two): a walk then finds its page anywhere.
      const matches = list.updatedSince === undefined ? totals.hint(students) : undefined;
      return !(matches && matches * 5 > (await users()));
    }
    return !(await walksFew(students, list, FENCE_ROWS));
  }

  /** A list's statements, built once per search text, status and order (`builtOnce`). */
  const built = builtOnce<ReturnType<typeof buildStatements>>();
  const statementsOf = (search: string, status: StudentFilter['status'], byId: boolean) =>
    built(`${search}\u0000${status ?? ''}\u0000${byId}`, () => buildStatements(search, status, byId));

  function buildStatements(search: string, status: StudentFilter['status'], byId: boolean) {
    // The same indexed match as the users group of GET /search (src/db/search.ts, ADR 0009); a
    // page in id order reads the matches in that order where the index can (SQLite).
    const inIdOrder = search && byId ? matchesInIdOrder(db, dialect, 'users', search) : null;
    const filtered = (test: typeof isStudent) => {
      const matching = (inIdOrder ?? db.selectFrom('users')).where(test);
      return status === undefined ? matching : matching.where('users.email_verified', '=', status === 'verified');
    };
    const matching = filtered(isStudent);
    const rows = matching;
    // Planned once (it chooses the index lookup's parts), used by the count and the page.
    const contains = search && !inIdOrder ? textMatch(dialect, 'users', search) : null;
    // The page's own columns; its courses are added to the page's rows alone (`decorate`).
    const columns = COLUMNS;
    const indexed = (contains ? rows.where(contains) : rows).select(columns);
    let walking: typeof indexed | undefined;
    let fence: typeof indexed | undefined;
    return {
      students: contains ? matching.where(contains) : matching,
      /** The page's rows: looked up through the index, or (`walk`) by testing each user in id order. */
      page: (walk: boolean) => {
        if (!walk) return indexed;
        walking ??= rows.where(textScan('users', search)).select(columns);
        return walking;
      },
      /** The matches found through the index, in a subquery planned on its own (OFFSET 0), then ordered (`matchesFirst`). */
      fenced: () => {
        fence ??= (db as Kysely<any>).selectFrom(indexed.offset(0).as('users')).selectAll('users') as unknown as typeof indexed;
        return fence;
      },
      columns: {
        sort: {
          id: inIdOrder ? matchOrderColumn('users') : 'users.id',
          name: 'users.name',
          email: 'users.email',
          created_at: 'users.created_at',
          updated_at: 'users.updated_at',
        },
        id: inIdOrder ? matchOrderColumn('users') : 'users.id',
        updatedAt: 'users.updated_at',
      } satisfies ListColumns<StudentSort>,
    };
  }

  /** The students counted per range of ids (`student_counts`), of one verification state or both. */
  function counted(status: StudentFilter['status']) {
    const counts = db.selectFrom('student_counts');
    return status === undefined ? counts : counts.where('student_counts.email_verified', '=', status === 'verified');
  }

  /**
   * A page of the whole list (no search, no `updated_since`), found without reading the students
   * before it (ADR 0024). Its total is the sum of `student_counts`. In id order the page starts in the
   * range of ids that holds it, found from the ranges' counts, and skips only the students of that
   * range before it (at most STUDENT_ID_RANGE). In another order it starts at the mark of that order
   * whose bucket holds it (`student_marks_<order>`, migration 0031), found from the buckets' counts,
   * and skips only the students of that bucket before it; then it reads the page's rows by id.
   */
  async function wholeList(status: StudentFilter['status'], list: ListRequest<StudentSort>): Promise<Page<StudentWithCourses>> {
    const { offset, perPage } = list.page;
    const students = status === undefined ? db.selectFrom('users').where(isStudent) : filtered(status);
    const total = counted(status).select(sql<number>`coalesce(sum(student_counts.students), 0)`.as('total'));
    const desc = list.direction === 'desc';
    const [near, far] = desc ? (['desc', 'asc'] as const) : (['asc', 'desc'] as const);
    const asBigint = (value: RawBuilder<unknown>) => sql<number>`cast(${value} as bigint)`;
    let ids: SelectQueryBuilder<DB, 'users', { id: number }>;
    // The page size as a literal: PostgreSQL plans a limit it cannot see as a tenth of the rows (and
    // then hashed every user to find the page's); the few sizes clients use make a few statements.
    const size = sql.lit(perPage) as RawBuilder<number>;
    let backwards = false;
    if (list.sort === 'id') {
      const ranges = counted(status)
        .select(['student_counts.id_range', sql<number>`sum(student_counts.students)`.as('students')])
        .groupBy('student_counts.id_range');
      // Each range with the students of the ranges before it in the page's order.
      const placed = db
        .selectFrom(ranges.as('ranges'))
        .select([
          'ranges.id_range',
          sql<number>`coalesce(sum(ranges.students) over (order by ranges.id_range ${sql.raw(near)} rows between unbounded preceding and 1 preceding), 0)`.as(
            'before',
          ),
        ]);
      const start = db
        .selectFrom(placed.as('placed'))
        .select(['placed.id_range', 'placed.before'])
        .where('placed.before', '<=', offset)
        .orderBy('placed.id_range', far)
        .limit(1);
      const range = sql`(select start.id_range from (${start}) as start)`;
      const before = sql`(select start.before from (${start}) as start)`;
      ids = students
        .select('users.id')
        .where(
          'users.id',
          desc ? '<' : '>=',
          desc ? sql<number>`(${range} + 1) * ${sql.lit(STUDENT_ID_RANGE)}` : sql<number>`${range} * ${sql.lit(STUDENT_ID_RANGE)}`,
        )
        .orderBy('users.id', near)
        .limit(size)
        .offset(asBigint(sql`${offset} - coalesce(${before}, 0)`));
    } else {
      // The page's first student counted in ascending order (a page read in descending order is the
      // same students as the ascending page that ends where it ends, counted from the last with the
      // total read in the same statement; a last page shorter than the size also brings the
      // students before it, dropped below). Its bucket is the last mark whose students before it
      // are no more than that; the page skips only the students of its bucket before it.
      const order = list.sort;
      const max = dialect === 'postgres' ? 'greatest' : 'max';
      const first = desc ? sql<number>`${sql.raw(max)}(0, (${total}) - ${offset} - ${perPage})` : sql<number>`${offset}`;
      const counts = status === undefined ? sql`m.verified + m.unverified` : sql.ref(`m.${status}`);
      const placed = sql`(select m.mark, m.id, coalesce(sum(${counts}) over (order by m.mark, m.id rows between unbounded preceding and 1 preceding), 0) as before
        from ${sql.table(marksTable(order))} as m) as placed`;
      const bucket = sql`(select placed.mark, placed.id, placed.before from ${placed} where placed.before <= ${first}
        order by placed.mark desc, placed.id desc limit 1) as bucket`;
      backwards = desc;
      ids = students
        .select('users.id')
        .where(sql<SqlBool>`(${sql.ref(`users.${order}`)}, users.id) >= (select bucket.mark, bucket.id from ${bucket})`)
        .orderBy(`users.${order}`, 'asc')
        .orderBy('users.id', 'asc')
        .limit(size)
        .offset(asBigint(sql`${first} - (select bucket.before from ${bucket})`));
    }
    // The page's rows by their ids, in the page's order (ids read backwards come back in it too).
    const rows = db
      .selectFrom('users')
      .select([...COLUMNS, coursesColumn(dialect)])
      .where('users.id', 'in', ids);
    const ordered = list.sort === 'id' ? rows : rows.orderBy(`users.${list.sort}`, near);
    // Prepared on PostgreSQL: planning it cost more than running it, and its plan is the same for any page.
    const page = await pageAndTotal(db, ordered.orderBy('users.id', near), total, { prepared: true, readers, kept: totals });
    if (backwards) {
      const rows = Math.max(0, Math.min(perPage, page.total - offset));
      page.items = page.items.slice(page.items.length - rows);
    }
    return mapPage(page, withCourses);
  }

  /**
   * A page of the students who hold one of `words` (`student_terms`, ADR 0026): the search text lies
   * within these words alone of all the students' words, so the students are theirs. Each word's
   * students are a range of the index of the page's order; a student who also holds an earlier word
   * is left to that word's range, so the ranges are apart and are merged in the page's order
   * (`union all` with the compound's own order: SQLite merges the ranges, skipping at most the
   * students before the page; PostgreSQL 15 sorts them, `MAX_WORDS`). Then the page's rows are read
   * by id; the total is a count of the ranges, kept per version.
   */
  async function termList(
    words: readonly string[],
    status: StudentFilter['status'],
    list: ListRequest<StudentSort>,
  ): Promise<Page<StudentPageRow>> {
    const direction = list.direction;
    // The words' ranges merged, each row with `key` (the order's columns) and its id; with `first`,
    // each range only its first rows in the order of the key and id (a subquery each: PostgreSQL
    // then reads them from the order's index and merges them).
    const mergedBy = (key: readonly StudentSort[], first?: { direction: Direction; rows: number }) => {
      const ranges = words.map((word, i) => {
        const held = db
          .selectFrom('student_terms as t')
          .select([...key.map((k) => `t.${k}` as 't.name'), 't.id'])
          .where('t.term', '=', word);
        const filtered = status === undefined ? held : held.where('t.email_verified', '=', status === 'verified');
        const range = i === 0 ? filtered : filtered.where(notInEarlierTerms(words.slice(0, i), 't.id'));
        if (!first) return range;
        const ordered = key.reduce((q, k) => q.orderBy(`t.${k}` as 't.name', first.direction), range).orderBy('t.id', first.direction);
        return (db as Kysely<any>).selectFrom(ordered.limit(first.rows).as(`range_${i}`)).selectAll() as unknown as typeof range;
      });
      return ranges.slice(1).reduce((all, range) => all.unionAll(range), ranges[0] as (typeof ranges)[number]);
    };
    const key: StudentSort[] = list.sort === 'id' ? [] : [list.sort];
    const merged = mergedBy(key);
    // The words' students as one list, whatever the order: its count, kept once for every order and
    // page (it was counted again for each order), and what its pages are kept by.
    const matches = (db as Kysely<any>).selectFrom(mergedBy([]).as('matches')) as unknown as SelectQueryBuilder<DB, any, any>;
    const page = await listPage(db, merged, list, TERM_COLUMNS, {
      // The total counted once per version of the database (ADR 0015); the page is kept by `list`.
      kept: totals,
      keepCount: true,
      keepPages: false,
      count: matches,
      // A page past the middle of the words' students skips those after it (ids read backwards,
      // rows ordered by `decorate`).
      nearerEnd: true,
      readers,
      // PostgreSQL 15 sorted every student of several words' ranges for a page of them (a first name
      // that lies in two words, `eva` and `evans`: 16 ms for page 1); each range now gives the
      // window its first rows alone. SQLite merges the ranges in order as they are.
      windowed: dialect === 'postgres' && words.length > 1 ? (direction, rows) => mergedBy(key, { direction, rows }) : undefined,
      // The page's ids from the ranges, then its rows by id.
      decorate: (ids) => {
        const rows = db
          .selectFrom('users')
          .select([...COLUMNS, coursesColumn(dialect)])
          .where('users.id', 'in', (db as Kysely<any>).selectFrom(ids.as('page')).select('page.id'));
        return (list.sort === 'id' ? rows : rows.orderBy(`users.${list.sort}`, direction)).orderBy('users.id', direction);
      },
    });
    return page as Page<StudentPageRow>;
  }

  /**
   * A page of a search through the trigram index (or, on PostgreSQL, a walk of the ids): its rows
   * with their courses, its total kept per version, and the page kept too unless `keepPages` is false.
   */
  async function searchPage(
    statements: ReturnType<typeof statementsOf>,
    search: string,
    list: ListRequest<StudentSort>,
    keepPages: boolean,
  ): Promise<Page<StudentPageRow>> {
    // PostgreSQL, a text many students contain (its last total says so): the page walks the ids
    // and tests each user, in a prepared statement planned once per connection; planning this
    // statement cost PostgreSQL as much as running it. Other texts are looked up in the index,
    // planned for their own selectivity. The total is counted through the index either way.
    const walk = search !== '' && dialect === 'postgres' && list.sort === 'id' && (await walksFew(statements.students, list));
    const fenced = search !== '' && dialect === 'postgres' && !walk && (await matchesFirst(statements.students, list));
    const direction = list.direction;
    const page = await listPage(db, fenced ? statements.fenced() : statements.page(walk), list, statements.columns, {
      kept: totals,
      keepCount: true,
      keepPages,
      count: statements.students,
      prepared: walk,
      readers,
      decorate: (rows) => {
        const ordered = (db as Kysely<any>).selectFrom(rows.as('page')).selectAll('page').select(coursesColumn(dialect, 'page.id'));
        return (list.sort === 'id' ? ordered : ordered.orderBy(`page.${list.sort}`, direction)).orderBy('page.id', direction);
      },
    });
    // The rows carry the courses that `decorate` added.
    return page as Page<StudentPageRow>;
  }

  function filtered(status: 'verified' | 'unverified') {
    return db
      .selectFrom('users')
      .where(isStudent)
      .where('users.email_verified', '=', status === 'verified');
  }

  return {
    list: async (filter: StudentFilter, list: ListRequest<StudentSort>): Promise<Page<StudentWithCourses>> => {
      const search = filter.search === undefined ? '' : searchText(filter.search);
      if (search === '' && list.updatedSince === undefined) return wholeList(filter.status, list);
      const statements = statementsOf(search, filter.status, list.sort === 'id');
      const needle = search.toLowerCase();
      if (list.updatedSince !== undefined || !mayLieInTerms(needle))
        return mapPage(await searchPage(statements, search, list, true), withCourses);
      // A text that may lie within a word or a pair of words (ADR 0026). Its kept page (ADR 0017) is
      // named by the text's own filter and given before the terms are looked up; read, it is its
      // terms' students, none, or the search as before.
      const window = `words ${list.sort} ${list.direction} ${list.page.offset} ${list.page.perPage}`;
      const current = await totals.page(statements.students, window, async (): Promise<Page<StudentPageRow>> => {
        const term = await termOf(db, dialect, needle);
        if (term === 'none') return { items: [], total: 0 };
        return term ? termList(term.words, filter.status, list) : searchPage(statements, search, list, false);
      });
      return mapPage({ items: current.items, total: current.total, kept: current }, withCourses);
    },

    findStudent: async (id: number): Promise<StudentWithCourses | undefined> => {
      const row = await db
        .selectFrom('users')
        .select([...COLUMNS, coursesColumn(dialect)])
        .where('users.id', '=', id)
        .where(isStudent)
        .executeTakeFirst();
      return row && withCourses(row);
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
