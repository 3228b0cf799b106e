import { SEARCH_COLUMNS, searchText } from '../../db/search.ts';
import { ensureTrigramSamples, LOOKUP_CHARACTERS } from '../../db/trigrams.ts';
import type { ServiceContext } from '../../platform/context.ts';
import type { AcademyModule, SearchGroup } from '../../platform/module.ts';
import type { Platform } from '../../platform/platform.ts';
import { SEARCH_DEFAULT_LIMIT, type SearchGroupResult } from './schemas.ts';
import { createSearchStatement } from './statement.ts';

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

export function createSearchService(platform: Platform, groups: readonly SearchGroup[]) {
  const { db, dialect } = platform.database;
  const statement = createSearchStatement(platform.database.planned(), dialect, groups);
  return {
    /** Every group's matches of `q` (trimmed, control characters ignored); a blank `q` matches nothing and asks no group. */
    async search(
      _ctx: ServiceContext,
      query: { q?: string | undefined; limit?: number | undefined },
    ): Promise<Record<string, SearchGroupResult>> {
      const q = searchText(query.q ?? '');
      const limit = query.limit ?? SEARCH_DEFAULT_LIMIT;
      if (q === '') return Object.fromEntries(groups.map((group) => [group.name, { total: 0, items: [] }]));
      if (q.length > LOOKUP_CHARACTERS + 1) {
        await ensureTrigramSamples(db, SEARCH_COLUMNS, (error) =>
          platform.logger.warn({ err: error }, 'Search could not sample its tables; long texts are looked up whole.'),
        );
      }
      return statement.run(q, limit);
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
