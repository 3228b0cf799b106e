import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Ref, Single } from '../../http/schemas.ts';
import type { SearchGroup } from '../manifest.ts';
import { SEARCH_TOTAL_CAP, SearchGroupResult, SearchHit, SearchQuery, SearchResults } from './schemas.ts';
import type { SearchService } from './service.ts';

/** The groups' orders, in words: "by id (`students`, …), newest first (`documents`, …), by title (`courses`)". */
function ordersOf(groups: readonly SearchGroup[]): string {
  const orders = new Map<string, string[]>();
  for (const group of groups) {
    const order =
      group.order === 'id' ? ((group.direction ?? 'asc') === 'asc' ? 'by id' : 'newest first') : `by ${group.order.replace(/_/g, ' ')}`;
    orders.set(order, [...(orders.get(order) ?? []), `\`${group.name}\``]);
  }
  return [...orders].map(([order, names]) => `${order} (${names.join(', ')})`).join(', ');
}

export const searchRoutes: FastifyPluginAsyncTypebox<{ search: SearchService; groups: readonly SearchGroup[] }> = async (
  app,
  { search, groups },
) => {
  const Results = SearchResults(groups.map((group) => group.name));
  app.addSchema(SearchHit);
  app.addSchema(SearchGroupResult);
  app.addSchema(Results);

  app.get('/search', {
    config: { access: { scope: 'search:read' } },
    schema: {
      operationId: 'search',
      tags: ['Search'],
      summary: 'Search every resource at once',
      description:
        'Finds `q` inside the text of each group’s items, case-insensitively (letter case folded beyond ASCII), and answers ' +
        `with every group — ${groups.map((g) => `\`${g.name}\``).join(', ')} — each with its \`total\`, counted up to ` +
        `${SEARCH_TOTAL_CAP} (\`total_capped\` is true when more match), and its first \`limit\` items among every match: ` +
        `${ordersOf(groups)}. ` +
        'A blank `q` returns every group with `total` 0 and no items. Every item carries the `path` that reads it. A change is ' +
        'found as soon as the request that made it has returned. Learning resources are found only once published.\n\n' +
        '`search:read` alone finds nothing the token could not read otherwise: a group is searched only when the token also ' +
        'holds the read scopes of what it finds and shows (an enrolment shows its student and course, a certificate its ' +
        'holder), `*` holding them all — ' +
        groups.map((g) => `\`${g.name}\`: ${g.scopes.map((scope) => `\`${scope}\``).join(', ')}`).join('; ') +
        '. Every group carries `restricted`: true for a group the token lacks a scope of, which is answered empty ' +
        '(`total` 0, no items) and not searched; false for the others.',
      querystring: SearchQuery,
      response: { 200: Single(Ref(Results)) },
    },
    handler: async (request) => ({ data: await search.search(request.ctx, request.query) }),
  });
};
