import { type CompiledQuery, type Kysely, type QueryCreator, type RawBuilder, type SqlBool, sql } from 'kysely';
import { jsonArrayFrom as postgresJsonArray } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArray } from 'kysely/helpers/sqlite';
import type { Dialect } from '../../db/database.ts';
import { executePrepared } from '../../db/prepared.ts';
import type { DB } from '../../db/schema.ts';
import { planMatch, SEARCH_COLUMNS, type SearchTable, type TextMatchPlan, textMatchPlan } from '../../db/search.ts';
import { databaseVersion } from '../../db/totals.ts';
import type { SearchGroup, SearchScope } from '../manifest.ts';
import type { SearchGroupResult } from './schemas.ts';

/**
 * `GET /search` in one statement (ADR 0009, "One statement"): the users whose name or email contains
 * the text, once, as a common table expression that the groups matching through users read; each
 * group's matches as another, materialized, so that its total and its page read them once; and one
 * row with every group's total and page (as JSON). One round trip on PostgreSQL instead of fourteen,
 * one statement on SQLite instead of fourteen.
 *
 * Building and compiling that statement costs more than running it, and its text depends only on
 * the shape of the text's match in each table (`TextMatchPlan.kind` and `recheck`): it is compiled
 * once per shape with stand-ins for the values, which each search replaces with its own.
 */

/** A stand-in parameter: the name of the value that replaces it. */
const SLOT = '\u0000search:';

function slot(name: string): RawBuilder<unknown> {
  return sql`${`${SLOT}${name}`}`;
}

const TABLES = Object.keys(SEARCH_COLUMNS) as SearchTable[];

/** Compiled statements kept per shape; a handful exist (texts of one, two, or more characters; rechecked or not). */
const MAX_SHAPES = 64;

interface Statement {
  compiled: CompiledQuery<Record<string, unknown>>;
  /** Per parameter: the name of the search value it stands for, or null for a constant of a group's query. */
  slots: (string | null)[];
}

export interface SearchStatement {
  /** Every group's total and first `limit` hits of `text` (trimmed, not blank), and the database's version they were read at; no group is restricted. */
  run(text: string, limit: number): Promise<{ results: Record<string, SearchGroupResult>; version: string }>;
}

/** The statement over `groups` alone: the search makes one per set of groups a token may read, and asks no other. */
export function createSearchStatement(db: Kysely<DB>, dialect: Dialect, groups: readonly SearchGroup[]): SearchStatement {
  const statements = new Map<string, Statement>();
  const jsonArray = dialect === 'postgres' ? postgresJsonArray : sqliteJsonArray;

  function build(plans: Record<SearchTable, TextMatchPlan>, limit: number): Statement {
    let throughUsers = false;
    const scope: SearchScope = {
      db,
      dialect,
      match: (table, alias = table) =>
        planMatch(dialect, table, plans[table], { lookup: slot(`${table}.lookup`), needle: slot(`${table}.needle`) }, alias),
      user: (column) => {
        throughUsers = true;
        return sql<SqlBool>`${sql.ref(column)} in (select search_users.id from search_users)`;
      },
    };
    const matches = groups.map((group) => group.matches(scope));
    const any = db as Kysely<any>;
    // The users matching the text, only when a group asks for them (a token may search none of those groups).
    let query: QueryCreator<any> = throughUsers
      ? any.with(
          (cte) => cte('search_users').materialized(),
          () => db.selectFrom('users').select('users.id').where(scope.match('users')),
        )
      : any;
    matches.forEach((match, i) => {
      query = query.with(
        (cte) => cte(`search_${i}`).materialized(),
        () => match,
      );
    });
    // A literal, not a parameter: SQLite ran the page of a group with `limit ?` about 90 µs slower
    // than with `limit 10`, even with nothing to sort (limit is an integer of 1 to 50).
    const page = sql.lit(limit);
    const compiled = query
      .selectNoFrom((eb) => [
        databaseVersion(dialect).as('search_version'),
        ...groups.flatMap((group, i) => {
          const matches = `search_${i}`;
          const direction = group.direction ?? 'asc';
          const first = any
            .selectFrom(matches)
            .select(['id', ...group.columns].map((column) => `${matches}.${column}`))
            .orderBy(`${matches}.${group.order}`, direction)
            .orderBy(`${matches}.id`, direction)
            .limit(page);
          const rows = group.details
            ? group
                .details(any.selectFrom(first.as('page')).select('page.id'))
                .orderBy(`page.${group.order}`, direction)
                .orderBy('page.id', direction)
            : first;
          return [eb.selectFrom(matches).select(eb.fn.countAll().as('n')).as(`${matches}_total`), jsonArray(rows).as(`${matches}_rows`)];
        }),
      ])
      .compile() as CompiledQuery<Record<string, unknown>>;
    const slots = compiled.parameters.map((value) =>
      typeof value === 'string' && value.startsWith(SLOT) ? value.slice(SLOT.length) : null,
    );
    return { compiled, slots };
  }

  return {
    async run(text, limit) {
      if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`A search's limit is a positive integer, not ${limit}`);
      const plans = {} as Record<SearchTable, TextMatchPlan>;
      const values = new Map<string, unknown>();
      let shape = `${limit}:`;
      for (const table of TABLES) {
        const plan = textMatchPlan(dialect, table, text);
        plans[table] = plan;
        values.set(`${table}.lookup`, plan.lookup);
        values.set(`${table}.needle`, plan.needle);
        shape += `${plan.kind}${plan.recheck ? '+' : ''},`;
      }
      let statement = statements.get(shape);
      if (!statement) {
        statement = build(plans, limit);
        if (statements.size >= MAX_SHAPES) statements.clear();
        statements.set(shape, statement);
      }
      const { compiled, slots } = statement;
      const parameters = compiled.parameters.map((value, i) => {
        const name = slots[i];
        return name === null || name === undefined ? value : values.get(name);
      });
      const [row] = (await executePrepared(db, { ...compiled, parameters })) as Record<string, unknown>[];
      const results: Record<string, SearchGroupResult> = {};
      groups.forEach((group, i) => {
        const json = row?.[`search_${i}_rows`];
        const rows = (typeof json === 'string' ? JSON.parse(json) : (json ?? [])) as unknown[];
        results[group.name] = { total: Number(row?.[`search_${i}_total`] ?? 0), items: rows.map((r) => group.hit(r)), restricted: false };
      });
      return { results, version: String(row?.search_version) };
    },
  };
}
