import { sql } from 'kysely';
import { executePrepared } from '../../db/prepared.ts';
import { SEARCH_SOURCES, searchText } from '../../db/search.ts';
import { versionCheck } from '../../db/totals.ts';
import { ensureTrigramSamples, LOOKUP_CHARACTERS, sampleForSearch } from '../../db/trigrams.ts';
import type { ServiceContext } from '../../platform/context.ts';
import type { Platform } from '../../platform/platform.ts';
import { grants } from '../../platform/tokens/scopes.ts';
import type { AcademyModule, SearchGroup } from '../manifest.ts';
import { SEARCH_DEFAULT_LIMIT, type SearchGroupResult } from './schemas.ts';
import { createSearchStatement, type SearchStatement } from './statement.ts';

/** Every module's search groups, by name; a name contributed twice fails at start. */
export function searchGroupsOf(modules: readonly AcademyModule[]): SearchGroup[] {
  const groups = new Map<string, SearchGroup>();
  for (const module of modules) {
    for (const group of module.search ?? []) {
      if (groups.has(group.name)) throw new Error(`Search group ${group.name} is contributed twice (again by the ${module.name} module)`);
      groups.set(group.name, group);
    }
  }
  return [...groups.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * A search whose groups matched at least this many rows in all is kept with the database's version
 * and given again while nothing is written (ADR 0009, "Kept answers"): its totals cost what they
 * count, up to a thousand rows a group (ADR 0025), while checking the version costs one small statement.
 */
export const KEEP_MATCHES = 1000;
/** Kept answers, the least recently asked dropped first. */
const MAX_KEPT = 100;

type Results = Record<string, SearchGroupResult>;

/** Statements kept, one per set of groups that tokens may read (a handful: tokens hold a few sets of scopes). */
const MAX_STATEMENTS = 32;

/** A group the token may not read: empty, whatever matches, and not searched. */
function restricted(): SearchGroupResult {
  return { total: 0, total_capped: false, items: [], restricted: true };
}

export function createSearchService(
  platform: Platform,
  groups: readonly SearchGroup[],
  options: {
    /** False: every search runs its statement (the benchmark measures what a search costs so). */
    keep?: boolean;
    /** Matches from which an answer is kept (KEEP_MATCHES). */
    keepMatches?: number;
  } = {},
) {
  const keepMatches = options.keep === false ? Number.POSITIVE_INFINITY : (options.keepMatches ?? KEEP_MATCHES);
  const { db, dialect } = platform.database;
  const planned = platform.database.planned();
  /** The statement of each set of readable groups, by their names. */
  const statements = new Map<string, SearchStatement>();
  // The version kept answers are compared by. SQLite's is its connection's own count of changes: the
  // main connection's is read, before the statement (src/db/sqlite-readers.ts), which may run on
  // another; an answer read after a version is kept with it, and given again while it is current.
  const versions = dialect === 'sqlite' ? db : planned;
  const check = versionCheck(versions, dialect);
  const versionBefore = async () => (await executePrepared(versions, check))[0]?.version;
  /** Kept answers by the groups searched (what the token's scopes allow), the limit and the text. */
  const kept = new Map<string, { version: string; results: Results }>();
  /** Searches under way for a kept text, by its key and the version read before they started. */
  const running = new Map<string, Promise<Results>>();
  /** Answers given from the kept ones, and searches run, since the process started. */
  const stats = { kept: 0, searched: 0 };

  /** The groups `scopes` may read: a token must hold every read scope of a group. */
  function readable(scopes: readonly string[]): SearchGroup[] {
    return groups.filter((group) => group.scopes.every((scope) => grants(scopes, scope)));
  }

  function statementOf(allowed: readonly SearchGroup[], names: string): SearchStatement {
    let statement = statements.get(names);
    if (!statement) {
      statement = createSearchStatement(planned, dialect, allowed);
      if (statements.size >= MAX_STATEMENTS) statements.delete(statements.keys().next().value as string);
      statements.set(names, statement);
    }
    return statement;
  }

  /** Every group: the searched ones' results, the others restricted. */
  function answerOf(searched: Results): Results {
    return Object.fromEntries(groups.map((group) => [group.name, searched[group.name] ?? restricted()]));
  }

  /** Searches `q` and keeps a common text's answer; `current`: the version just read, if it was (SQLite: read again otherwise). */
  async function answer(statement: SearchStatement, q: string, limit: number, key: string, current?: string): Promise<Results> {
    const before = dialect === 'sqlite' ? (current ?? (await versionBefore())) : undefined;
    const { results: searched, version } = await statement.run(q, limit, before);
    stats.searched++;
    const results = answerOf(searched);
    if (Object.values(results).reduce((sum, group) => sum + group.total, 0) >= keepMatches) {
      kept.delete(key);
      kept.set(key, { version, results });
      if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value as string);
    }
    return results;
  }

  const sampleFailed = (error: unknown) =>
    platform.logger.warn({ err: error }, 'Search could not sample its tables; texts are looked up whole.');

  return {
    stats,
    /**
     * Takes the samples that a search plans its texts by (src/db/trigrams.ts) now; resolves once they
     * are taken (or failed, logged), and its statements' connections are open. A server starts it as it begins to listen (`buildApp`'s `warm`),
     * without waiting: on PostgreSQL the first search after a start waited for them (about 1 s at a
     * million students).
     */
    warm: async (): Promise<void> => {
      // And the connections its statements run on (SQLite's reader threads start, side by side).
      const started = sql`select 1`.execute(planned).then(
        () => {},
        (error: unknown) => platform.logger.warn({ err: error }, 'Search could not reach its connections yet.'),
      );
      await Promise.all([ensureTrigramSamples(db, dialect, SEARCH_SOURCES, sampleFailed), started]);
    },
    /**
     * Every group's matches of `q` (trimmed, control characters ignored) among the groups the acting
     * token may read; the others restricted, without asking them. A blank `q` matches nothing and asks no group.
     */
    async search(ctx: ServiceContext, query: { q?: string | undefined; limit?: number | undefined }): Promise<Results> {
      const q = searchText(query.q ?? '');
      const limit = query.limit ?? SEARCH_DEFAULT_LIMIT;
      const allowed = readable(ctx.actor.scopes);
      if (q === '' || allowed.length === 0) {
        const names = new Set(allowed.map((group) => group.name));
        return Object.fromEntries(
          groups.map((group) => [
            group.name,
            names.has(group.name) ? { total: 0, total_capped: false, items: [], restricted: false } : restricted(),
          ]),
        );
      }
      // The samples choose the parts of a long text to look up, and on PostgreSQL whether a text is
      // common enough in a table to read it row by row (searchPlan).
      if (dialect === 'postgres' ? [...q].length >= 3 : q.length > LOOKUP_CHARACTERS + 1) {
        await sampleForSearch(db, dialect, SEARCH_SOURCES, sampleFailed);
      }
      const names = allowed.map((group) => group.name).join(',');
      const statement = statementOf(allowed, names);
      // An answer is kept for the groups it searched: a token that may read fewer never gets it.
      const key = `${names}\u0000${limit}\u0000${q}`;
      const known = kept.get(key);
      if (!known) return answer(statement, q, limit, key);
      const [current] = await executePrepared(versions, check);
      if (current?.version === known.version) {
        stats.kept++;
        kept.delete(key);
        kept.set(key, known);
        return known.results;
      }
      // After a write, the requests for a kept text that read the same version share one search: it
      // starts after that version was read, so it sees at least what each of them saw.
      const shared = `${key}\u0000${current?.version}`;
      const under = running.get(shared);
      if (under) return under;
      const search = answer(statement, q, limit, key, current?.version);
      running.set(shared, search);
      try {
        return await search;
      } finally {
        running.delete(shared);
      }
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
