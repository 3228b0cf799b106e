import {
  type AliasedExpression,
  AliasNode,
  type AndNode,
  type BinaryOperationNode,
  type CompiledQuery,
  type Kysely,
  type KyselyPlugin,
  type OperationNode,
  OperationNodeTransformer,
  type OrNode,
  ParensNode as Parens,
  type ParensNode,
  type QueryCreator,
  type QueryId,
  type RawBuilder,
  RawNode,
  type SelectQueryBuilder,
  SelectQueryNode,
  type SqlBool,
  sql,
  TableNode,
} from 'kysely';
import { jsonArrayFrom as postgresJsonArray } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArray } from 'kysely/helpers/sqlite';
import type { Dialect } from '../../db/database.ts';
import { holderTermsOf } from '../../db/holder-terms.ts';
import { executePrepared } from '../../db/prepared.ts';
import type { DB } from '../../db/schema.ts';
import {
  matchSource,
  matchTest,
  planMatch,
  rowsOf,
  SEARCH_COLUMNS,
  type SearchTable,
  searchPlan,
  type TextMatchPlan,
} from '../../db/search.ts';
import { mayLieInTerms, notInEarlierTerms, termsRead } from '../../db/student-terms.ts';
import { databaseVersion } from '../../db/totals.ts';
import type { SearchGroup, SearchScope } from '../manifest.ts';
import { SEARCH_TOTAL_CAP, type SearchGroupResult } from './schemas.ts';

/**
 * `GET /search` in one statement (ADR 0009, "One statement"; ADR 0025): every group's total, counted
 * up to SEARCH_TOTAL_CAP, and its first `limit` matches, in one row (each group's page as JSON). One
 * round trip on PostgreSQL instead of fourteen.
 *
 * No group's matches are read whole: a group's query (`matches`) is a condition on its own table's
 * rows (the first table it reads from) made of the scope's text conditions — `match` on a table,
 * `student` on a column holding a student's id — and filters. The statement reads the rows each of those
 * conditions reaches through its own index, one after the other, each without the rows an earlier
 * one reached, and stops counting at the cap. A page in id order is then
 * - read in that order from the index where it gives it (SQLite's FTS5 index is in rowid order),
 *   stopping at the page's last row;
 * - or sorted from the rows the index found, when they are at most a bound (COLLECT; through users,
 *   when the users are at most FEW_USERS);
 * - or, when there are more, found by reading the group's table in id order and testing each row
 *   until the page is full: a text that many rows contain fills a page after a few of them.
 * Which of the last two is read is decided in the statement, by what it counted; the other is not
 * read. A group in another order (courses, by title) is sorted whole.
 *
 * Building and compiling that statement costs more than running it, and its text depends only on
 * the shape of the text's match in each table: it is compiled once per shape with stand-ins for the
 * values, which each search replaces with its own.
 */

/** A stand-in parameter: the name of the value that replaces it. */
const SLOT = '\u0000search:';

function slot(name: string): RawBuilder<unknown> {
  return sql`${`${SLOT}${name}`}`;
}

const TABLES = Object.keys(SEARCH_COLUMNS) as SearchTable[];

/**
 * Compiled statements kept per shape, the least recently used dropped first. Shapes are the page
 * size, each table's plan (texts of one, two, or more characters; rechecked or not; scanned or not)
 * and how many of the students' terms the text lies in: 2,000 texts drawn like the benchmark's
 * made 60 on SQLite at scale 10 (32 before the terms); as the grouped mix draws them, 26 on SQLite
 * and 21 on PostgreSQL, which counts the terms too since it sets up no slot past them. Each costs
 * 20–35 ms to build; emptying the whole cache at a bound they come near rebuilt them all.
 */
const MAX_SHAPES = 160;

/**
 * The page sizes a statement is built for: a search reads the first of these that holds its `limit`
 * and keeps `limit` of each group's hits (the first of an ordered page are the smaller page). The
 * limit is a literal of the statement (PostgreSQL plans it so), so each size is a statement to build
 * and, on PostgreSQL, to plan per connection (33 ms for a full name's): twenty sizes made twenty.
 */
const PAGE_SIZES = [5, 10, 20, 50] as const;

/** The page size a statement is built for to answer `limit`. */
function builtFor(limit: number): number {
  return PAGE_SIZES.find((size) => size >= limit) ?? limit;
}

/**
 * The most rows of a way of matching that are read and sorted for a page, by how they are reached:
 * a table's own text or its users' (as many as are counted; through users, all of them when the
 * users are few: FEW_USERS), or another table's (a course's enrolments: one course holds 2,500 at any
 * size, found in a few sessions that a walk in id order may meet late).
 */
const COLLECT = { own: SEARCH_TOTAL_CAP, link: SEARCH_TOTAL_CAP, other: 2500 } as const;

/**
 * Rows reached through users (enrolments, certificates) are all read and sorted when at most this
 * many users contain the text (a few of rows each), else found by walking the table in id order,
 * which then meets them at least once in every thousand or so rows at ten times the size: both
 * cost a few milliseconds at worst. Counted, not estimated: a sample said a full name 329 users hold
 * was common, and the walk for its enrolments read 33,000 rows.
 */
const FEW_USERS = 2500;

interface Statement {
  compiled: CompiledQuery<Record<string, unknown>>;
  /** Per parameter: the name of the search value it stands for, or null for a constant of a group's query. */
  slots: (string | null)[];
}

export interface SearchStatement {
  /**
   * Every group's total and first `limit` hits of `text` (trimmed, not blank), and the database's
   * version they were read at: `before` when given (a version read before the statement, on a
   * connection whose versions the caller compares), else its terms' when they were read first, else
   * the statement's; no group is restricted.
   */
  run(text: string, limit: number, before?: string): Promise<{ results: Record<string, SearchGroupResult>; version: string }>;
}

/** How a text condition of the scope is written in one of a group's queries. */
type Form = 'lookup' | 'test' | 'true' | 'false';

/** A text condition a group's query asked the scope for, in the order asked. */
type Condition = { kind: 'match'; table: SearchTable; alias: string } | { kind: 'student'; column: string };

/**
 * One way a group's rows match: `own` (the text of its own rows), `link` (the user whose id is in
 * its `column`), `other` (anything else: another table's text reached through the group's joins).
 */
type Way = { kind: 'own'; table: SearchTable } | { kind: 'link'; column: string } | { kind: 'other' };

type AnyQuery = SelectQueryBuilder<any, any, any>;

/** `true` or `false` written as such (a condition of the scope turned off or on), else null. */
function truth(node: OperationNode): boolean | null {
  if (Parens.is(node)) return truth(node.node);
  if (RawNode.is(node) && node.parameters.length === 0 && node.sqlFragments.length === 1) {
    const text = node.sqlFragments[0]?.trim();
    if (text === 'true') return true;
    if (text === 'false') return false;
  }
  return null;
}

/**
 * `left op right` with its constant sides dropped: `absorbing` (true for `or`, false for `and`) on
 * either side is the whole condition; the other constant leaves the other side alone.
 */
function folded<T extends OrNode | AndNode>(node: T, absorbing: boolean): T {
  const [left, right] = [truth(node.left), truth(node.right)];
  if (left === absorbing || right === absorbing) return RawNode.createWithSql(String(absorbing)) as unknown as T;
  if (left === !absorbing) return node.right as T;
  if (right === !absorbing) return node.left as T;
  return node;
}

/**
 * Drops the conditions of a group's query that a search turned into `true` or `false` (`x or false`
 * is `x`): SQLite reads `session_id in (…) or false` by scanning the whole index instead of looking
 * each session up.
 */
class ConstantConditions extends OperationNodeTransformer {
  protected override transformOr(node: OrNode, queryId?: QueryId): OrNode {
    return folded(super.transformOr(node, queryId), true);
  }

  protected override transformAnd(node: AndNode, queryId?: QueryId): AndNode {
    return folded(super.transformAnd(node, queryId), false);
  }

  protected override transformParens(node: ParensNode, queryId?: QueryId): ParensNode {
    const parens = super.transformParens(node, queryId);
    return truth(parens.node) === null ? parens : (parens.node as ParensNode);
  }

  /** `x in (select … where false)` is false: SQLite would build the empty list again for each row a subquery asks about. */
  protected override transformBinaryOperation(node: BinaryOperationNode, queryId?: QueryId): BinaryOperationNode {
    const operation = super.transformBinaryOperation(node, queryId);
    const operator = operation.operator as { operator?: string };
    const right = Parens.is(operation.rightOperand) ? operation.rightOperand.node : operation.rightOperand;
    if (operator.operator === 'in' && SelectQueryNode.is(right) && right.where && truth(right.where.where) === false) {
      return RawNode.createWithSql('false') as unknown as BinaryOperationNode;
    }
    return operation;
  }
}

const constantConditions: KyselyPlugin = {
  transformQuery: (args) => new ConstantConditions().transformNode(args.node),
  transformResult: async (args) => args.result,
};

/** The table a query reads first, and its alias. */
function firstTable(query: AnyQuery): { table: string; alias: string } {
  const node = (query.toOperationNode() as { from?: { froms: unknown[] } }).from?.froms[0];
  if (AliasNode.is(node as never)) {
    const aliased = node as AliasNode;
    if (TableNode.is(aliased.node)) {
      return { table: aliased.node.table.identifier.name, alias: (aliased.alias as unknown as { name: string }).name };
    }
  }
  if (TableNode.is(node as never)) {
    const name = (node as TableNode).table.identifier.name;
    return { table: name, alias: name };
  }
  throw new Error('A search group must read its own table first');
}

/** The statement over `groups` alone: the search makes one per set of groups a token may read, and asks no other. */
export function createSearchStatement(db: Kysely<DB>, dialect: Dialect, groups: readonly SearchGroup[]): SearchStatement {
  const statements = new Map<string, Statement>();
  const jsonArray = dialect === 'postgres' ? postgresJsonArray : sqliteJsonArray;
  const any = db as Kysely<any>;
  const values = (table: SearchTable) => ({ lookup: slot(`${table}.lookup`), needle: slot(`${table}.needle`) });

  function build(plans: Record<SearchTable, TextMatchPlan>, limit: number, terms: number | null): Statement {
    const usersAlias = 'search_user';
    /**
     * The users that contain the text, when it lies within at most MAX_WORDS of the students' words
     * or pairs (`terms`: how many, ADR 0026): the students of those terms, a range of
     * `student_terms`' key each (SQLite merges them in id order), and the students who joined the
     * staff since, who left the terms (`users_students_on_staff`, a few users, their text tested).
     * A group's own users are students; rows found through a student (`student`) are enrolments and
     * certificates, which only students hold. A row's student is tested by a probe of the terms' key
     * instead of lowercasing its text (SQLite) or reading its user (PostgreSQL), and no trigram list
     * is read: "arthur svensson" 3.7 ms through SQLite's trigram index, 0.01 ms through its pair.
     */
    const byTerms = terms !== null;
    const termSlots = Array.from({ length: terms ?? 0 }, (_, i) => slot(`users.term${i}`));
    const studentsOnStaff = (): AnyQuery =>
      any
        .selectFrom('users as search_staff')
        .select('search_staff.id as id')
        .where(sql<SqlBool>`search_staff.is_student and search_staff.is_admin`)
        .where(matchTest(dialect, 'users', plans.users, values('users'), 'search_staff'));
    /**
     * Each term's students; on PostgreSQL, without those of an earlier term (SQLite's `union` drops
     * them as it merges), unless `overlapping`.
     */
    const termRanges = (overlapping = false): AnyQuery[] =>
      termSlots.map((term, i): AnyQuery => {
        const range = any.selectFrom('student_terms as search_term').select('search_term.id as id').where('search_term.term', '=', term);
        return dialect === 'sqlite' || i === 0 || overlapping
          ? range
          : range.where(notInEarlierTerms(termSlots.slice(0, i), 'search_term.id'));
      });
    const merge = (all: AnyQuery, range: AnyQuery) => (dialect === 'sqlite' ? all.union(range) : all.unionAll(range));
    const inOrder = (all: AnyQuery) => (dialect === 'sqlite' ? all.orderBy('id') : all);
    /** Every student that contains the text (`byTerms`); in id order on SQLite. */
    const usersByTerms = (): AnyQuery => inOrder(termRanges().reduce(merge, studentsOnStaff()));
    /** The students who are not staff that contain the text (`byTerms`): the terms' ranges alone; null when there are none. */
    const termStudents = (): AnyQuery | null => {
      const [first, ...ranges] = termRanges();
      return first ? inOrder(ranges.reduce(merge, first)) : null;
    };
    /** Whether the student whose id is `id` contains the text (`byTerms`): a probe of the terms' key per row. */
    const termsTest = (id: RawBuilder<unknown>) => {
      const staff = sql<SqlBool>`${id} in (${studentsOnStaff()})`;
      if (termSlots.length === 0) return staff;
      const probe = (terms: RawBuilder<SqlBool>) =>
        sql<SqlBool>`coalesce((select true from student_terms as search_term where ${terms} and search_term.id = ${id} limit 1), false)`;
      if (dialect === 'sqlite') return sql<SqlBool>`(${probe(sql`search_term.term in (${sql.join(termSlots)})`)} or ${staff})`;
      // PostgreSQL: a probe per term the text has (an array of the terms was sorted again for every
      // row probed: 3 µs a row).
      const probes = termSlots.map((term) => probe(sql`search_term.term = ${term}`));
      return sql<SqlBool>`(${sql.join([...probes, staff], sql` or `)})`;
    };
    /** The users that contain the text, up to one past FEW_USERS: counted once, for every group that matches through users. */
    const seen = 'search_users_seen';
    let usersSeen = false;
    // Whether they are few: counted once (`search_users_few`), where each way that asked counted
    // them again (six counts of 2,501 ids in a surname's statement on PostgreSQL).
    const few = 'search_users_few';
    const fewUsers = sql<SqlBool>`(select search_few.few from ${sql.table(few)} as search_few)`;
    const userTest = (column: string) =>
      byTerms
        ? termsTest(sql.ref(column))
        : sql<SqlBool>`coalesce((select true from users as ${sql.id(usersAlias)} where ${sql.ref(`${usersAlias}.id`)} = ${sql.ref(column)} and ${matchTest(
            dialect,
            'users',
            plans.users,
            values('users'),
            usersAlias,
          )}), false)`;
    const userLookup = (column: string) =>
      byTerms
        ? sql<SqlBool>`${sql.ref(column)} in (${usersByTerms()})`
        : sql<SqlBool>`${sql.ref(column)} in (${matchSource(db, dialect, 'users', plans.users, values('users'), usersAlias).query.select(`${usersAlias}.id`)})`;

    /**
     * A group's query with each of its text conditions written in `forms(i)`; `asked` receives them.
     * Its constant conditions are dropped (`ConstantConditions`) unless `kept`: PostgreSQL turns an
     * `x in (…)` alone in a query's conditions into a join, and one beside a `false` into a set
     * read once and hashed (`walk`).
     */
    function query(group: SearchGroup, forms: (i: number) => Form, asked?: Condition[], kept = false): AnyQuery {
      let i = 0;
      const written = (form: Form, lookup: () => RawBuilder<SqlBool>, test: () => RawBuilder<SqlBool>) =>
        form === 'lookup' ? lookup() : form === 'test' ? test() : form === 'true' ? sql<SqlBool>`true` : sql<SqlBool>`false`;
      const scope: SearchScope = {
        db,
        dialect,
        match: (table, alias = table) => {
          asked?.push({ kind: 'match', table, alias });
          if (byTerms && table === 'users') {
            const id = sql.ref(`${alias}.id`);
            return written(
              forms(i++),
              () => sql<SqlBool>`${id} in (${usersByTerms()})`,
              () => termsTest(id),
            );
          }
          return written(
            forms(i++),
            () => planMatch(dialect, table, plans[table], values(table), alias),
            () => matchTest(dialect, table, plans[table], values(table), alias),
          );
        },
        student: (column) => {
          asked?.push({ kind: 'student', column });
          return written(
            forms(i++),
            () => userLookup(column),
            () => userTest(column),
          );
        },
      };
      const built = group.matches(scope);
      return kept ? built : built.withPlugin(constantConditions);
    }

    const ctes: { name: string; query: AnyQuery }[] = [];
    const page = sql.lit(limit);
    /**
     * PostgreSQL: the first `limit` ids of `ranges` together, from each range's first `limit` in id
     * order, each id once (`union`). The ranges may share ids: a later range without an earlier
     * one's read the whole range when the earlier held it (`garc`, in `garcia` and `garcía`: 16,921
     * probes for none, 25 ms).
     */
    const firstOfRanges = (ranges: AnyQuery[], direction: 'asc' | 'desc'): AnyQuery =>
      any
        .selectFrom(
          ranges
            .map(
              (range): AnyQuery => any.selectFrom(range.orderBy('id', direction).limit(page).as('search_range')).select('search_range.id'),
            )
            .reduce((all, range) => all.union(range))
            .as('search_ranges'),
        )
        .select('search_ranges.id')
        .orderBy('search_ranges.id', direction)
        .limit(page);
    const columns = groups.flatMap((group, g) => {
      const conditions: Condition[] = [];
      const { table, alias } = firstTable(query(group, () => 'true', conditions));
      const ways: Way[] = conditions.map((condition): Way => {
        if (condition.kind === 'match' && condition.alias === alias && rowsOf(condition.table) === table) {
          return { kind: 'own', table: condition.table };
        }
        if (condition.kind === 'student' && condition.column.startsWith(`${alias}.`)) {
          return { kind: 'link', column: condition.column.slice(alias.length + 1) };
        }
        return { kind: 'other' };
      });
      // A group without a text condition matches what its query reads.
      if (ways.length === 0) ways.push({ kind: 'other' });
      const direction = group.direction ?? 'asc';
      const only = (w: number, form: Form) => (i: number) => (i === w ? form : 'false');
      /** Whether the group's row `id` is among those that way `w` alone matches, written in `form`. */
      const holds = (w: number, form: Form, id: string) =>
        sql<SqlBool>`coalesce((select true from (${query(group, only(w, form))}) as search_q where search_q.id = ${sql.ref(id)}), false)`;
      /**
       * `rows` (up to `count`; null: as they are) when `when`, which is true or false for the whole
       * statement; else nothing, without reading them. SQLite reads them to a limit of 0, which it
       * answers without reading a row (a false condition on the rows would still read the table
       * through); PostgreSQL skips a branch whose condition is false and keeps the limit a constant,
       * so that the plan's estimated cost stays small (an estimate over a whole table brought JIT
       * compilation: 0.8 s each run).
       */
      const gated = (rows: AnyQuery, when: RawBuilder<SqlBool>, count: RawBuilder<number> | null): AnyQuery => {
        if (dialect === 'sqlite') {
          const taken = count ?? sql.lit(-1);
          return any
            .selectFrom(rows.as('search_gated'))
            .selectAll('search_gated')
            .limit(sql<number>`case when ${when} then ${taken} else 0 end`);
        }
        return any
          .selectFrom((count ? rows.limit(count) : rows).as('search_gated'))
          .selectAll('search_gated')
          .where(when);
      };
      /** How many of each way's rows are collected (one more tells there are more); through users, all of them when the users are few. */
      const bounds = ways.map((way) => COLLECT[way.kind]);
      /** Whether way `w` is read from the users counted once when they are few. */
      // Not a group's own users found through the students' terms: their ranges give them in id order
      // and stop at the bound, where the users counted once would all be joined and sorted.
      // Nor rows kept by their holder's terms (`heldTerms`), which are ranges too.
      const throughSeen = (w: number) => {
        const way = ways[w] as Way;
        return (way.kind === 'link' && heldTerms(w) === null) || (way.kind === 'own' && way.table === 'users' && !byTerms);
      };
      const names = ways.map((_, w) => `search_${g}_${w}`);
      /**
       * Whether way `w`'s collection holds all its rows: it holds no more than its bound; through
       * users, the users are few, or their rows were read to the last without reaching the cap (a
       * text that thousands of staff contain reaches few enrolments, which a walk would look for
       * through the whole table).
       */
      const complete = (w: number) => {
        const bound = bounds[w] as number;
        const size = sql<number>`(select count(*) from ${sql.table(names[w] as string)})`;
        if (throughSeen(w)) return sql<SqlBool>`(${fewUsers} or ${size} <= ${sql.lit(bound)})`;
        return sql<SqlBool>`${size} <= ${sql.lit(bound)}`;
      };
      /**
       * Whether the ways before `w` already count past the cap. The group's total is then capped
       * whatever way `w` holds, so a way collected as it is (neither read in order nor through users)
       * is collected without testing each row against the earlier ways: its collection then only
       * tells whether it holds them all. `tom`'s enrolments through 61 courses' titles, 2,501 of
       * them, were each tested against the students who hold the text (26 ms), after those students'
       * enrolments had counted 1,001.
       */
      const pastCap = (w: number) =>
        sql<SqlBool>`(${sql.join(
          names.slice(0, w).map((earlier) => sql`(select count(*) from ${sql.table(earlier)})`),
          sql` + `,
        )}) > ${sql.lit(SEARCH_TOTAL_CAP)}`;
      /**
       * Way `w`'s rows that no earlier way matches: each is counted once. An earlier way
       * whose rows were all collected is asked by its collection, else by testing the row.
       */
      const fresh = (w: number, id: string) =>
        Array.from({ length: w }, (_, earlier) => {
          const collected = sql.table(names[earlier] as string);
          return sql<SqlBool>`not (case when ${complete(earlier)} then ${sql.ref(id)} in (select id from ${collected}) else ${holds(earlier, 'test', id)} end)`;
        });

      /**
       * The table of the group's rows by their holder's terms (src/db/holder-terms.ts) when way `w`
       * reaches its students through their terms and nothing else filters its rows; else null.
       */
      const heldTerms = (w: number): string | null => {
        const way = ways[w] as Way;
        return byTerms && way.kind === 'link' && !filtered(w) ? holderTermsOf(table, way.column) : null;
      };

      /** Whether way `w`'s rows are filtered beyond its text condition (the group's query has other conditions or joins). */
      const filtered = (w: number) => {
        const node = query(group, only(w, 'true')).toOperationNode() as SelectQueryNode;
        return (node.joins?.length ?? 0) > 0 || (node.where !== undefined && truth(node.where.where) !== true);
      };

      /** The ids of the rows that way `w` reaches through its index, and the column that reads them in id order (or null). */
      const reached = (
        w: number,
      ): { rows: AnyQuery; order: string | null; fromSeen: AnyQuery | null; first: AnyQuery | null; bare?: AnyQuery } => {
        const way = ways[w] as Way;
        let rows: AnyQuery;
        let order: string | null = null;
        // Users' rows read from the users counted once for the whole statement, when they are few.
        let fromSeen: AnyQuery | null = null;
        // The way's first page when it is read apart from the rows counted.
        let first: AnyQuery | null = null;
        if (throughSeen(w)) {
          const joined = way.kind === 'link' ? `search_row.${way.column}` : 'search_row.id';
          fromSeen = any
            .selectFrom(`${seen} as search_seen`)
            .crossJoin(
              way.kind === 'own' && filtered(w)
                ? query(group, only(w, 'true')).as('search_row')
                : (sql.table(table).as('search_row') as never),
            )
            .where(sql<SqlBool>`${sql.ref(joined)} = search_seen.id`)
            .select('search_row.id as id');
          if (way.kind === 'link' && filtered(w)) fromSeen = fromSeen.where(holds(w, 'true', 'search_row.id'));
          for (const condition of fresh(w, 'search_row.id')) fromSeen = fromSeen.where(condition);
          usersSeen = true;
        }
        const held = heldTerms(w);
        if (held !== null && way.kind === 'link') {
          // The rows of the students the terms hold, by their holder's terms: a range of the held
          // table's key per term (on PostgreSQL without the rows of an earlier term), and those of
          // the students who joined the staff since, who left the terms; each without the rows an
          // earlier way matches. The count reads the ranges up to the bound; the page is the first
          // of each range in id order (SQLite merges them so), where the students were each probed
          // and the table walked testing every row's holder.
          const arm = (rows: AnyQuery, id: string) => fresh(w, id).reduce((r: AnyQuery, c) => r.where(c), rows);
          const arms = (overlapping: boolean): AnyQuery[] => [
            ...termSlots.map((term, i) => {
              const range = any.selectFrom(`${held} as search_held`).select('search_held.id as id').where('search_held.term', '=', term);
              const alone =
                dialect === 'sqlite' || i === 0 || overlapping
                  ? range
                  : range.where(notInEarlierTerms(termSlots.slice(0, i), 'search_held.id', held));
              return arm(alone, 'search_held.id');
            }),
            arm(
              any
                .selectFrom(`${table} as search_row`)
                .select('search_row.id as id')
                .where(sql<SqlBool>`${sql.ref(`search_row.${way.column}`)} in (${studentsOnStaff()})`),
              'search_row.id',
            ),
          ];
          rows = any.selectFrom(inOrder(arms(false).reduce(merge)).as('search_held_rows')).select('search_held_rows.id as id');
          if (dialect === 'sqlite') {
            order = 'search_held_rows.id';
          } else {
            // The students on staff's rows apart (`offset 0`): ordered by id as they were, the plan
            // walked every certificate in id order to find those few students' (240 ms).
            const apart = (range: AnyQuery, i: number) =>
              i < termSlots.length
                ? range
                : any.selectFrom(range.offset(sql.lit(0)).as('search_staff_rows')).select('search_staff_rows.id as id');
            first = firstOfRanges(arms(true).map(apart), direction);
          }
          return { rows, order, fromSeen, first };
        }
        if (way.kind === 'own' && way.table === 'users' && byTerms) {
          // The students of the terms (in id order on SQLite) joined to the group's own rows (its
          // filters): PostgreSQL stops at the bound, where `id in (…)` hashed every student first.
          // A group of the students themselves takes the terms' students as they are: reading each
          // one's user to filter it cost a surname's count 0.9 ms on SQLite.
          const students = group.indexed ? termStudents() : null;
          rows = students
            ? any.selectFrom(students.as('search_terms')).select('search_terms.id as id')
            : any
                .selectFrom(usersByTerms().as('search_terms'))
                .crossJoin(filtered(w) ? query(group, only(w, 'true')).as('search_row') : (sql.table(table).as('search_row') as never))
                .where(sql<SqlBool>`search_row.id = search_terms.id`)
                .select('search_row.id as id');
          if (dialect === 'sqlite') order = 'search_terms.id';
          else if (students) {
            // PostgreSQL counts the ranges as they come, up to the bound, and pages from each range's
            // first `limit` in id order: a generic plan sorted every student of a surname (16,732
            // ids, 6 ms) to keep the first thousand.
            first = firstOfRanges(termRanges(true), direction);
          }
        } else if (way.kind === 'own' && group.indexed && dialect === 'postgres' && way.table === 'staff' && byTerms) {
          // A group of the staff themselves: a range of `staff_terms` per term (later ones without
          // the staff of earlier ones), counted up to the bound; the page from each range's first
          // `limit`. The trigram index's matches were each read from `users` and rechecked (a
          // surname's 1,690 from 717 pages), and the page walked the staff testing each one's text.
          const ranges = (overlapping: boolean): AnyQuery[] =>
            termSlots.map((term, i): AnyQuery => {
              const range = any
                .selectFrom('staff_terms as search_staff_term')
                .select('search_staff_term.id as id')
                .where('search_staff_term.term', '=', term);
              return i === 0 || overlapping
                ? range
                : range.where(notInEarlierTerms(termSlots.slice(0, i), 'search_staff_term.id', 'staff_terms'));
            });
          const [one, ...more] = ranges(false);
          // No term: no staff user holds a word of the text (the vocabulary holds every one's).
          const none = any.selectFrom('staff_terms as search_staff_term').select('search_staff_term.id as id').where(sql<SqlBool>`false`);
          rows = any.selectFrom((one ? more.reduce(merge, one) : none).as('search_staff_terms')).select('search_staff_terms.id as id');
          first = one ? firstOfRanges(ranges(true), direction) : none;
        } else if (
          way.kind === 'own' &&
          group.indexed &&
          dialect === 'sqlite' &&
          way.table === 'staff' &&
          plans.staff.kind === 'index' &&
          !plans.staff.recheck
        ) {
          // A group of the staff themselves: the staff's index alone, in rowid order (reading each
          // one's user to filter it cost a surname's count 0.4 ms).
          rows = any
            .selectFrom('staff_search')
            .select(sql<number>`staff_search.rowid`.as('id'))
            .where(sql<SqlBool>`staff_search match ${values('staff').lookup}`);
          order = 'staff_search.rowid';
        } else if (way.kind === 'own' && dialect === 'sqlite' && plans[way.table].kind === 'index') {
          // The index joined to the group's own rows (its filters), which SQLite flattens into one loop.
          const source = matchSource(
            db,
            dialect,
            way.table,
            plans[way.table],
            values(way.table),
            'search_row',
            filtered(w) ? query(group, only(w, 'true')).as('search_row') : undefined,
          );
          rows = source.query.select('search_row.id as id');
          order = source.order;
        } else if (way.kind === 'link') {
          const users = plans.users;
          if (byTerms) {
            rows = any
              .selectFrom(usersByTerms().as('search_terms'))
              .crossJoin(`${table} as search_row`)
              .where(sql<SqlBool>`${sql.ref(`search_row.${way.column}`)} = search_terms.id`);
          } else if (dialect === 'sqlite' && users.kind === 'index' && !users.recheck) {
            // The users' index alone finds their ids: no need to read their rows.
            rows = any
              .selectFrom(sql.table('users_search').as('users_search'))
              .crossJoin(`${table} as search_row`)
              .where(sql<SqlBool>`${sql.ref(`search_row.${way.column}`)} = ${sql.ref('users_search.rowid')}`)
              .where(sql<SqlBool>`${sql.table('users_search')} match ${values('users').lookup}`);
          } else {
            rows = matchSource(db, dialect, 'users', users, values('users'), usersAlias)
              .query.crossJoin(`${table} as search_row`)
              .where(sql<SqlBool>`${sql.ref(`search_row.${way.column}`)} = ${sql.ref(`${usersAlias}.id`)}`);
          }
          rows = rows.select('search_row.id as id');
          if (filtered(w)) rows = rows.where(holds(w, 'true', 'search_row.id'));
        } else {
          rows = any.selectFrom(query(group, only(w, 'lookup')).as('search_row')).select('search_row.id as id');
          // SQLite reads a table scanned for a short text in rowid order.
          if (way.kind === 'own' && dialect === 'sqlite') order = 'search_row.id';
        }
        const bare = rows;
        for (const condition of fresh(w, 'search_row.id')) rows = rows.where(condition);
        return { rows, order, fromSeen, first, bare };
      };

      /** The first `count` (`limit`; null: unlimited, to limit later) ids of way `w` found by reading the group's table in id order, testing each row. */
      const walk = (w: number, count: RawBuilder<number> | null = page): AnyQuery => {
        // The table itself, each row asked of the group's query: nothing else for a planner to read
        // instead (SQLite looked a course's 80,000 enrolments up by session and sorted them). SQLite
        // joins the group's query (`CROSS JOIN` keeps the table outside): asked row by row in a
        // subquery, it listed the course's sessions again for each row.
        const way = ways[w] as Way;
        const rows =
          way.kind === 'link' && !filtered(w)
            ? // A row's student tested on the row itself: the group's query would read the row again.
              any
                .selectFrom(`${table} as search_row`)
                .select('search_row.id as id')
                .where(userTest(`search_row.${way.column}`))
            : dialect === 'sqlite'
              ? any
                  .selectFrom(`${table} as search_row`)
                  .crossJoin(query(group, only(w, 'test')).as('search_q'))
                  .where(sql<SqlBool>`search_q.id = search_row.id`)
                  .select('search_row.id as id')
              : way.kind === 'other'
                ? // Another table's rows (a course's sessions): the group's query itself in id order,
                  // its `x in (…)` kept beside the other ways' `false`, so that PostgreSQL reads the
                  // set once and tests each row against its hash. Asked row by row, each enrolment's
                  // session and course were read again: `tom` (61 courses) walked 8,465 enrolments
                  // in 61 ms.
                  any.selectFrom(query(group, only(w, 'lookup'), undefined, true).as('search_row')).select('search_row.id as id')
                : any
                    // The group's own rows (its filters), which PostgreSQL reads from a partial index of
                    // them when there is one: the staff, after every student, are not walked to from id 1.
                    .selectFrom(
                      (filtered(w) ? query(group, only(w, 'true')) : sql.table(table)).as('search_row') as AliasedExpression<
                        any,
                        'search_row'
                      >,
                    )
                    .select('search_row.id as id')
                    .where(holds(w, 'test', 'search_row.id'));
        // Without the rows of earlier ways: the page merges each way's first ids once (`union`), and
        // a walk stops sooner without testing each row against every earlier way.
        const ordered = rows.orderBy('search_row.id', direction);
        return count === null ? ordered : ordered.limit(count);
      };

      /**
       * Each way's rows, collected up to its bound and one more (`search_<group>_<way>`): they count
       * the total, and give the way's first `limit` ids: in id order from the index where it reads them
       * so (SQLite), else sorted when every one was collected, else walked (there are more than the
       * bound, so a walk meets them often).
       */
      const firsts = ways.map((_, w) => {
        const { rows, order, fromSeen, first, bare } = reached(w);
        const bound = bounds[w] as number;
        const name = names[w] as string;
        const limited = (rows: AnyQuery) => (order ? rows.orderBy(order, direction) : rows).limit(sql.lit(bound + 1));
        const indexed =
          w > 0 && order === null && bare && !fromSeen
            ? any
                .selectFrom(gated(limited(bare), pastCap(w), null).as('search_past_cap'))
                .select('search_past_cap.id')
                .unionAll(
                  any
                    .selectFrom(gated(limited(rows), sql<SqlBool>`not ${pastCap(w)}`, null).as('search_counted'))
                    .select('search_counted.id'),
                )
            : limited(rows);
        if (fromSeen) {
          // Through users: the rows of the users counted once, all of them when the
          // users are few, else as many as the bound; when those users hold no more than that, the
          // way's own read of the index goes on past them. Only the one taken is read (`gated`).
          const ofSeen = `${name}_seen`;
          const none = sql.lit(dialect === 'sqlite' ? -1 : null);
          // In the users' order, which SQLite's ordered ways need (the first by id); PostgreSQL's
          // first users are any, and ordering by the rows' id made it merge-join every student.
          ctes.push({
            name: ofSeen,
            query: (order ? fromSeen.orderBy('search_seen.id', direction) : fromSeen).limit(
              sql<number>`case when ${fewUsers} then ${none} else ${sql.lit(bound + 1)} end`,
            ),
          });
          const enough = sql<SqlBool>`(${fewUsers} or (select count(*) from ${sql.table(ofSeen)}) > ${sql.lit(bound)})`;
          ctes.push({
            name,
            query: any
              .selectFrom(gated(any.selectFrom(ofSeen).select(`${ofSeen}.id`), enough, null).as('search_seen_rows'))
              .select('search_seen_rows.id')
              .unionAll(
                any.selectFrom(gated(indexed, sql<SqlBool>`not ${enough}`, null).as('search_index_rows')).select('search_index_rows.id'),
              ),
          });
        } else {
          ctes.push({ name, query: indexed });
        }
        const size = sql<number>`(select count(*) from ${sql.table(name)})`;
        const collected = any.selectFrom(name).select(`${name}.id`).orderBy(`${name}.id`, direction);
        if (first) return { size, ids: first };
        if (order) return { size, ids: collected.limit(page) };
        const all = complete(w);
        const sorted = any.selectFrom(gated(collected, all, page).as('search_ids')).select('search_ids.id');
        const walked = any.selectFrom(gated(walk(w, null), sql<SqlBool>`not (${all})`, page).as('search_ids')).select('search_ids.id');
        return { size, ids: sorted.unionAll(walked) as AnyQuery };
      });

      // Every way's rows, each once: exact up to the cap, as each way's bound is at least the cap.
      const total = sql<number>`(${sql.join(
        firsts.map(({ size }) => size),
        sql` + `,
      )})`;
      const first = firsts[0] as (typeof firsts)[number];

      // The page's ids: in id order, the first `limit` of all ways'; in another order, of every match sorted.
      const pageIds: AnyQuery =
        group.order === 'id'
          ? ways.length === 1
            ? any.selectFrom(first.ids.as('search_page')).select('search_page.id')
            : any
                .selectFrom(
                  firsts
                    .map(({ ids }): AnyQuery => any.selectFrom(ids.as('search_way')).select('search_way.id'))
                    .reduce((all, ids) => all.union(ids))
                    .as('search_page'),
                )
                .select('search_page.id')
                .orderBy('search_page.id', direction)
                .limit(page)
          : any
              .selectFrom(query(group, () => 'lookup').as('search_page'))
              .select('search_page.id')
              .orderBy(`search_page.${group.order}`, direction)
              .orderBy('search_page.id', direction)
              .limit(page);
      const pageRows = any
        .selectFrom(query(group, () => 'true').as('search_hit'))
        .select(['id', ...group.columns].map((column) => `search_hit.${column}`))
        .where('search_hit.id', 'in', pageIds);
      const rows = group.details
        ? group
            .details(any.selectFrom(pageRows.as('page')).select('page.id'))
            .orderBy(`page.${group.order}`, direction)
            .orderBy('page.id', direction)
        : pageRows.orderBy(`search_hit.${group.order}`, direction).orderBy('search_hit.id', direction);
      return [total.as(`search_${g}_total`), jsonArray(rows).as(`search_${g}_rows`)];
    });

    let statement: QueryCreator<any> = any;
    if (usersSeen) {
      const users = plans.users;
      // SQLite's index alone gives the ids when no whole text is checked; PostgreSQL reads the rows.
      const ids = byTerms
        ? any.selectFrom(usersByTerms().as('search_terms')).select('search_terms.id')
        : dialect === 'sqlite' && users.kind === 'index' && !users.recheck
          ? any
              .selectFrom(sql.table('users_search').as('users_search'))
              .select(sql<number>`users_search.rowid`.as('id'))
              .where(sql<SqlBool>`${sql.table('users_search')} match ${values('users').lookup}`)
          : matchSource(db, dialect, 'users', users, values('users'), 'search_seen').query.select('search_seen.id');
      ctes.unshift(
        { name: seen, query: ids.limit(sql.lit(FEW_USERS + 1)) },
        { name: few, query: any.selectFrom(seen).select(sql<SqlBool>`count(*) <= ${sql.lit(FEW_USERS)}`.as('few')) },
      );
    }
    for (const { name, query: rows } of ctes) {
      statement = statement.with(
        (cte) => cte(name).materialized(),
        () => rows,
      );
    }
    const compiled = statement.selectNoFrom([databaseVersion(dialect).as('search_version'), ...columns]).compile() as CompiledQuery<
      Record<string, unknown>
    >;
    const slots = compiled.parameters.map((value) =>
      typeof value === 'string' && value.startsWith(SLOT) ? value.slice(SLOT.length) : null,
    );
    return { compiled, slots };
  }

  return {
    async run(text, limit, before) {
      if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`A search's limit is a positive integer, not ${limit}`);
      const plans = {} as Record<SearchTable, TextMatchPlan>;
      const known = new Map<string, unknown>();
      const size = builtFor(limit);
      let shape = `${size}:`;
      for (const table of TABLES) {
        const plan = searchPlan(dialect, table, text);
        plans[table] = plan;
        known.set(`${table}.lookup`, plan.lookup);
        known.set(`${table}.needle`, plan.needle);
        shape += `${plan.kind}${plan.recheck ? '+' : ''},`;
      }
      // A text within a few of the students' words or pairs: its students through their terms.
      const needle = plans.users.needle;
      // Read before the statement: a write between the two must not leave an answer kept by the
      // statement's later version (a student who newly holds a word of the text, missing from it).
      const read = mayLieInTerms(needle) ? await termsRead(db, dialect, needle) : null;
      const terms = read?.terms ?? null;
      const words = terms === null || terms === 'none' ? [] : terms.words;
      // A statement for each count of words, with a slot for each. PostgreSQL plans each once per
      // connection; one with a slot for every word a text may lie in (four), null past its own,
      // set up the branches of all four for every search: 537 plan nodes for a surname where one
      // word's statement has 431, and the grouped mix answered 294 searches a second, now 313.
      const termSlots = words.length;
      for (const [i, word] of words.entries()) known.set(`users.term${i}`, word);
      if (terms !== null) shape += `terms${termSlots}`;
      let statement = statements.get(shape);
      if (statement) {
        statements.delete(shape);
      } else {
        statement = build(plans, size, terms === null ? null : termSlots);
        if (statements.size >= MAX_SHAPES) statements.delete(statements.keys().next().value as string);
      }
      statements.set(shape, statement);
      const { compiled, slots } = statement;
      const parameters = compiled.parameters.map((value, i) => {
        const name = slots[i];
        return name === null || name === undefined ? value : known.get(name);
      });
      const [row] = (await executePrepared(db, { ...compiled, parameters })) as Record<string, unknown>[];
      const results: Record<string, SearchGroupResult> = {};
      groups.forEach((group, i) => {
        const json = row?.[`search_${i}_rows`];
        const rows = (typeof json === 'string' ? JSON.parse(json) : (json ?? [])) as unknown[];
        const counted = Number(row?.[`search_${i}_total`] ?? 0);
        results[group.name] = {
          total: Math.min(counted, SEARCH_TOTAL_CAP),
          total_capped: counted > SEARCH_TOTAL_CAP,
          items: rows.slice(0, limit).map((r) => group.hit(r)),
          restricted: false,
        };
      });
      return { results, version: before ?? read?.version ?? String(row?.search_version) };
    },
  };
}
