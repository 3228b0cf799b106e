import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Ref, Single } from '../../http/schemas.ts';
import { SearchGroupResult, SearchHit, SearchQuery, SearchResults } from './schemas.ts';
import type { SearchService } from './service.ts';

export const searchRoutes: FastifyPluginAsyncTypebox<{ search: SearchService; groups: readonly string[] }> = async (
  app,
  { search, groups },
) => {
  const Results = SearchResults(groups);
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
        `with every group — ${groups.map((g) => `\`${g}\``).join(', ')} — each with its \`total\` and its first \`limit\` items. ` +
        'A blank `q` returns every group with `total` 0 and no items. Every item carries the `path` that reads it. A change is ' +
        'found as soon as the request that made it has returned. Learning resources are found only once published.',
      querystring: SearchQuery,
      response: { 200: Single(Ref(Results)) },
    },
    handler: async (request) => ({ data: await search.search(request.ctx, request.query) }),
  });
};
