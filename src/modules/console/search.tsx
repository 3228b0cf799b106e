import type { FastifyInstance } from 'fastify';
import type { SearchHit } from '../manifest.ts';
import type { SearchGroupResult } from '../search/schemas.ts';
import type { SearchService } from '../search/service.ts';
import { coursePath } from './catalogue.tsx';
import { PAGE, sendPage, viewerOf } from './guard.ts';
import { Layout } from './layout.tsx';
import type { Viewer } from './viewer.ts';

/** At most this much of the text is searched for (the search box sends what was typed). */
const MAX_TEXT = 200;

/**
 * The console's page of a hit, where there is one yet: the rest are shown without a link (never a
 * link to a page that does not exist).
 */
function consolePathOf(hit: SearchHit): string | undefined {
  if (hit.type === 'course' && typeof hit.slug === 'string') return coursePath(hit.slug);
  if (hit.type === 'session' && typeof hit.course === 'string') return `${coursePath(hit.course)}/sessions/${hit.id}`;
  if (hit.type === 'student') return `/console/students/${hit.id}`;
  if (hit.type === 'certificate') return `/console/certificates/${hit.id}`;
  return undefined;
}

/** The search of the masthead: every group of GET /search, over what the signed-in user may read. */
export function searchPages(app: FastifyInstance, deps: { search: SearchService }): void {
  app.get<{ Querystring: { q?: unknown } }>(
    '/console/search',
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const q = typeof request.query.q === 'string' ? request.query.q.slice(0, MAX_TEXT) : '';
      viewer.search = q;
      const results = q.trim() === '' ? undefined : await deps.search.search(viewer.ctx, { q });
      return sendPage(reply, 200, <SearchPage viewer={viewer} q={q} results={results} />);
    },
  );
}

function SearchPage(props: { viewer: Viewer; q: string; results: Record<string, SearchGroupResult> | undefined }): JSX.Element {
  const groups = Object.entries(props.results ?? {}).filter(([, group]) => group.total > 0);
  return (
    <Layout viewer={props.viewer} title="Search" section="search">
      {props.results === undefined ? (
        <p>Type what to look for in the search box: a course, a student, a session, a certificate number…</p>
      ) : groups.length === 0 ? (
        <p class="notice" role="status" safe>{`Nothing matches “${props.q.trim()}”.`}</p>
      ) : (
        <div class="results">
          <p role="status" safe>{`Results for “${props.q.trim()}”:`}</p>
          {groups.map(([name, group]) => (
            <section aria-labelledby={`group-${name}`}>
              <h2 id={`group-${name}`} safe>
                {`${name.charAt(0).toUpperCase()}${name.slice(1).replace(/_/g, ' ')} (${group.total_capped ? `more than ${group.total - 1}` : group.total})`}
              </h2>
              <ul>
                {group.items.map((item) => {
                  const hit: SearchHit = item;
                  const path = consolePathOf(hit);
                  return (
                    <li>
                      {path ? (
                        <a href={path} safe>
                          {hit.title}
                        </a>
                      ) : (
                        <span safe>{hit.title}</span>
                      )}
                      {hit.type === 'session' && typeof hit.course === 'string' && <span safe>{` (a session of ${hit.course})`}</span>}
                    </li>
                  );
                })}
              </ul>
              {group.total > group.items.length && (
                <p class="hint" safe>
                  {group.total_capped
                    ? `The first ${group.items.length} of more than ${group.total - 1}.`
                    : `The first ${group.items.length} of ${group.total}.`}
                </p>
              )}
            </section>
          ))}
        </div>
      )}
    </Layout>
  );
}
