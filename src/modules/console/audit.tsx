import type { Children } from '@kitajs/html';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { listRequest } from '../../http/list.ts';
import { StringEnum } from '../../http/schemas.ts';
import { AUDIT_ACTOR_TYPES, type AuditActorType } from '../../platform/audit.ts';
import { ValidationError } from '../../platform/errors.ts';
import { isDate, startOfDay } from '../../platform/time.ts';
import { validateInput } from '../../platform/validation.ts';
import type { AuditFilter } from '../audit/repository.ts';
import type { AuditEvent } from '../audit/schemas.ts';
import type { AuditService } from '../audit/service.ts';
import { firstErrors } from '../staff-auth/pages.ts';
import { PAGE, pageParams, queryOf, sendPage, viewerOf } from './guard.ts';
import { ErrorSummary, Layout, Pagination, ScrollingTable, Select, TextField, Time } from './layout.tsx';
import type { Viewer } from './viewer.ts';

export interface AuditPageDeps {
  audit: AuditService;
  maxPageSize: number;
}

const WholeNumber = Type.String({ pattern: '^[1-9][0-9]{0,8}$', 'x-message': 'must be a whole number from 1 up' });

/** The audit page's filters, as the URL gives them (text; an empty one is no filter). */
const AuditQuery = Type.Object({
  actor_type: Type.Optional(StringEnum(['', ...AUDIT_ACTOR_TYPES])),
  actor_id: Type.Optional(Type.String({ pattern: '^([1-9][0-9]{0,9})?$', 'x-message': 'must be an id, a whole number such as 12' })),
  subject: Type.Optional(
    Type.String({
      maxLength: 120,
      pattern: '^([a-z][a-z0-9_]*(:[1-9][0-9]{0,9})?)?$',
      'x-message': 'must be a kind of record, or a kind and an id, such as course or course:12',
    }),
  ),
  since: Type.Optional(Type.String({ pattern: '^([0-9]{4}-[0-9]{2}-[0-9]{2})?$', 'x-message': 'must be a date, such as 2026-11-29' })),
  page: Type.Optional(WholeNumber),
  per_page: Type.Optional(WholeNumber),
});
type AuditQuery = Static<typeof AuditQuery>;

const FILTERS = ['actor_type', 'actor_id', 'subject', 'since'] as const;
const MAX_ID = 2_147_483_647;

const ACTOR_LABELS: Record<AuditActorType, string> = {
  user: 'A staff user',
  token: 'An API token',
  operator: 'The command line',
  system: 'The system (jobs)',
};

/** The console's audit trail (CONTRACT, "Audit trail"): newest first, by actor, subject and date; `audit.read` only. */
export function auditPages(app: FastifyInstance, deps: AuditPageDeps): void {
  app.get('/console/audit', { config: { access: PAGE }, schema: { hide: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const raw = queryOf(request);
    let query: AuditQuery;
    let filter: AuditFilter;
    try {
      query = validateInput(AuditQuery, raw, 'query');
      filter = filterOf(query, viewer.timeZone);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const typed = Object.fromEntries(FILTERS.map((name) => [name, typeof raw[name] === 'string' ? raw[name] : ''])) as AuditQuery;
      return sendPage(reply, 422, <AuditPage viewer={viewer} query={typed} errors={firstErrors(error)} />);
    }
    const list = listRequest(
      {
        ...pageParams(query),
      },
      { maxPageSize: deps.maxPageSize, defaultSort: 'id', defaultDirection: 'desc' },
    );
    // Refused (403) by the service without audit.read.
    const page = await deps.audit.list(viewer.ctx, filter, list);
    return sendPage(
      reply,
      200,
      <AuditPage viewer={viewer} query={query} events={page.items}>
        <Pagination
          page={list.page.page}
          perPage={list.page.perPage}
          total={page.total}
          href={(n) => auditHref(query, { page: String(n) })}
        />
      </AuditPage>,
    );
  });
}

/** The service's filter of valid filters; `since` is the start of that day in the organization's time zone. */
function filterOf(query: AuditQuery, timeZone: string): AuditFilter {
  const errors: Record<string, string[]> = {};
  const actorId = query.actor_id ? Number(query.actor_id) : undefined;
  if (actorId !== undefined && actorId > MAX_ID) errors.actor_id = [`The actor_id field must be at most ${MAX_ID}.`];
  const [subjectType, subjectText] = query.subject ? query.subject.split(':') : [];
  const subjectId = subjectText === undefined ? undefined : Number(subjectText);
  if (subjectId !== undefined && subjectId > MAX_ID) errors.subject = [`The subject field’s id must be at most ${MAX_ID}.`];
  if (query.since && !isDate(query.since)) errors.since = ['The since field must be a date that exists, such as 2026-11-29.'];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return {
    actorType: query.actor_type || undefined,
    actorId,
    subjectType: subjectType || undefined,
    subjectId,
    since: query.since ? startOfDay(query.since, timeZone).toISOString() : undefined,
  };
}

function auditHref(query: AuditQuery, change: Partial<Record<keyof AuditQuery, string>>): string {
  const params = new URLSearchParams();
  for (const key of [...FILTERS, 'per_page', 'page'] as const) {
    const value = key in change ? change[key] : query[key];
    if (value) params.set(key, value);
  }
  const text = params.toString();
  return text ? `/console/audit?${text}` : '/console/audit';
}

/** A value of a change as JSON shows it, cut short when long. */
function shown(value: unknown): string {
  const text = value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

function AuditPage(props: {
  viewer: Viewer;
  query: AuditQuery;
  events?: AuditEvent[];
  errors?: Record<string, string>;
  children?: Children;
}): JSX.Element {
  const { viewer, query } = props;
  const errors = props.errors ?? {};
  const filtered = FILTERS.some((name) => query[name]);
  return (
    <Layout viewer={viewer} title="Audit trail" section="audit">
      <ErrorSummary errors={errors} order={FILTERS} />
      <p>Every change, from the console, the API, the command line or a job, newest first.</p>
      <form class="filters" method="get" action="/console/audit" aria-label="Filter the audit trail" novalidate>
        <Select
          name="actor_type"
          label="Who"
          value={query.actor_type ?? ''}
          error={errors.actor_type}
          options={[['', 'Anyone'], ...AUDIT_ACTOR_TYPES.map((type) => [type, ACTOR_LABELS[type]] as const)]}
        />
        <TextField
          name="actor_id"
          label="Their id"
          hint="A user’s or a token’s id."
          value={query.actor_id}
          error={errors.actor_id}
          inputmode="numeric"
        />
        <TextField
          name="subject"
          label="Record"
          hint="A kind, or a kind and id: course:12."
          value={query.subject}
          error={errors.subject}
          spellcheck={false}
        />
        <TextField type="date" name="since" label="Since" hint="From the start of this day." value={query.since} error={errors.since} />
        <div class="buttons">
          <button type="submit" class="primary">
            Show changes
          </button>
          {filtered && <a href="/console/audit">Clear the filters</a>}
        </div>
      </form>
      {props.events ? (
        props.events.length === 0 ? (
          <p class="notice" role="status">
            {filtered ? 'No change matches these filters.' : 'No change has been recorded yet.'}
          </p>
        ) : (
          <ScrollingTable label="Changes">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Record</th>
                <th scope="col">Through</th>
                <th scope="col">Changes</th>
              </tr>
            </thead>
            <tbody>
              {props.events.map((event) => (
                <tr>
                  <td>
                    <Time iso={event.occurred_at} timeZone={viewer.timeZone} />
                  </td>
                  <td>
                    <span safe>{event.actor_name ?? event.actor_type}</span>
                    {event.actor_id !== null && (
                      <>
                        {' '}
                        <a href={auditHref({}, { actor_type: event.actor_type, actor_id: String(event.actor_id) })} safe>
                          {`(${event.actor_type} ${event.actor_id})`}
                        </a>
                      </>
                    )}
                  </td>
                  <td class="nowrap" safe>
                    {event.action}
                  </td>
                  <td class="nowrap">
                    {event.subject_id === null ? (
                      <span safe>{event.subject_type}</span>
                    ) : (
                      <a href={auditHref({}, { subject: `${event.subject_type}:${event.subject_id}` })} safe>
                        {`${event.subject_type} ${event.subject_id}`}
                      </a>
                    )}
                  </td>
                  <td>{event.via}</td>
                  <td>
                    <Changes event={event} />
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
        )
      ) : (
        ''
      )}
      {props.children}
    </Layout>
  );
}

/** What changed, field by field, folded away (with the request it came from). */
function Changes(props: { event: AuditEvent }): JSX.Element {
  const { event } = props;
  const fields = Object.entries(event.changes ?? {});
  return (
    <details>
      <summary safe>{fields.length === 0 ? 'Details' : `${fields.length} field${fields.length === 1 ? '' : 's'}`}</summary>
      {fields.length > 0 && (
        <ul class="changes">
          {fields.map(([name, [before, after]]) => (
            <li>
              <code safe>{name}</code>: <span safe>{shown(before)}</span> → <span safe>{shown(after)}</span>
            </li>
          ))}
        </ul>
      )}
      <p class="hint" safe>
        {`Request ${event.request_id ?? '—'} from ${event.ip ?? '—'}`}
      </p>
    </details>
  );
}
