import type { Children } from '@kitajs/html';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { listRequest } from '../../http/list.ts';
import { StringEnum } from '../../http/schemas.ts';
import { NotFoundError, ValidationError } from '../../platform/errors.ts';
import { WEBHOOK_EVENT_TYPES } from '../../platform/events/types.ts';
import type { JobMetricsRepository, JobState } from '../../platform/jobs/metrics-repository.ts';
import { requirePermission } from '../../platform/permissions.ts';
import { RESERVED_SCOPES, SCOPES, WILDCARD } from '../../platform/tokens/scopes.ts';
import type { IssuedToken, TokenService, TokenView } from '../../platform/tokens/service.ts';
import { validateInput } from '../../platform/validation.ts';
import type { HealthReport, HealthService } from '../health/service.ts';
import { type IntegrationMessage, MESSAGE_STATUSES, type MessageStatus } from '../integrations/schemas.ts';
import type { IntegrationService } from '../integrations/service.ts';
import { firstErrors } from '../staff-auth/pages.ts';
import { formOf } from '../staff-auth/web.ts';
import type { Task, TaskDetail } from '../tasks/schemas.ts';
import type { TaskService } from '../tasks/service.ts';
import type { User } from '../users/schemas.ts';
import type { UserService } from '../users/service.ts';
import type { DeliveryView, EndpointView, WebhookService } from '../webhooks/service.ts';
import { CheckboxGroup, checkedOf, idOf, Notice, noticeOf, SecretOnce, SubNav } from './admin-parts.tsx';
import { PAGE, pageParams, queryOf, seeOther, sendPage, viewerOf } from './guard.ts';
import { ErrorSummary, Layout, Pagination, PostButton, ScrollingTable, Select, TextField, Time } from './layout.tsx';
import { staffPath } from './staff.tsx';
import { may, type Viewer } from './viewer.ts';

export interface OperationsDeps {
  tasks: TaskService;
  integrations: IntegrationService;
  webhooks: WebhookService;
  tokens: TokenService;
  health: HealthService;
  jobs: JobMetricsRepository;
  users: UserService;
  maxPageSize: number;
}

const BASE = '/console/operations';
const TASKS = BASE;
const MESSAGES = `${BASE}/messages`;
const WEBHOOKS = `${BASE}/webhooks`;
const TOKENS = `${BASE}/tokens`;
const HEALTH = `${BASE}/health`;

const LINKS = [
  [TASKS, 'Tasks and jobs'],
  [MESSAGES, 'Integration messages'],
  [WEBHOOKS, 'Webhooks'],
  [TOKENS, 'API tokens'],
  [HEALTH, 'Health'],
] as const;

const taskPath = (id: number) => `${BASE}/tasks/${id}`;
const endpointPath = (id: number) => `${WEBHOOKS}/${id}`;

const TASK_NOTICES: Record<string, string> = {
  queued: 'A run is queued: a worker starts it shortly.',
  enabled: 'The task is enabled: it runs on its schedule again.',
  disabled: 'The task is disabled: it is not scheduled and cannot be run.',
};
const MESSAGE_NOTICES: Record<string, string> = { retried: 'The message is queued again for a new series of attempts.' };
const ENDPOINT_NOTICES: Record<string, string> = {
  tested: 'A test event (ping) is queued for this endpoint.',
  redelivered: 'The delivery is queued again.',
};
const TOKEN_NOTICES: Record<string, string> = { revoked: 'The token is revoked: it stops working at once.' };

const WholeNumber = Type.String({ pattern: '^[1-9][0-9]{0,8}$', 'x-message': 'must be a whole number from 1 up' });

/** The messages' query: a state (`failed` unless said; empty for any) and the page. */
const MessageQuery = Type.Object({
  status: Type.Optional(StringEnum(['', ...MESSAGE_STATUSES])),
  page: Type.Optional(WholeNumber),
  per_page: Type.Optional(WholeNumber),
});
type MessageQuery = Static<typeof MessageQuery>;

const JOB_STATES: readonly JobState[] = ['waiting', 'running', 'failed'];
const HEALTH_LABELS: Record<string, string> = { pass: 'Passing', warn: 'Warning', fail: 'Failing' };

/** The scopes a token may be given, with the wildcard first. */
const SCOPE_OPTIONS = [
  [WILDCARD, 'Every scope (*)'] as const,
  ...SCOPES.map((scope) => [scope, scope] as const),
  ...RESERVED_SCOPES.map((scope) => [scope, scope, 'held, grants nothing through the API'] as const),
];
const TOKEN_FIELDS = ['name', 'scopes', 'user', 'expires_in_days'] as const;
type TokenForm = { name: string; scopes: string[]; user_id: string; expires_in_days: string; no_expiry: boolean };

const ENDPOINT_FIELDS = ['url', 'events'] as const;
type EndpointForm = { url: string; events: string[] };

/**
 * The operations pages (issue 41, "Operations"): scheduled tasks (run now, enable, disable, recent
 * runs) and the job queue's state, integration messages (retry the failed), webhook endpoints
 * (create, with the signing secret shown once on the answer; deliveries; a test; redelivery), API
 * tokens (create with scopes and an acting user, shown once; revoke; rotate) and health. Tasks and
 * retries need `operations.manage`, webhooks and tokens `integrations.manage`.
 */
export function operationsPages(app: FastifyInstance, deps: OperationsDeps): void {
  // Tasks and the job queue.
  app.get(TASKS, { config: { access: PAGE }, schema: { hide: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const now = viewer.ctx.clock.now().toISOString();
    const [tasks, counts, oldest] = await Promise.all([
      deps.tasks.list(viewer.ctx, {}, { page: { page: 1, perPage: 100, offset: 0 }, sort: 'task_type', direction: 'asc' }),
      deps.jobs.countByNameAndState(),
      deps.jobs.oldestWaiting(now),
    ]);
    return sendPage(reply, 200, <TasksPage viewer={viewer} tasks={tasks.items} counts={counts} oldest={oldest} />);
  });

  app.get<{ Params: { task: string } }>(
    `${BASE}/tasks/:task`,
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const task = await deps.tasks.get(viewer.ctx, idOf(request.params.task));
      return sendPage(reply, 200, <TaskPage viewer={viewer} task={task} notice={noticeOf(request.query, TASK_NOTICES)} />);
    },
  );

  app.post<{ Params: { task: string } }>(
    `${BASE}/tasks/:task/run`,
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const id = idOf(request.params.task);
      viewer.back = taskPath(id);
      await deps.tasks.runNow(viewer.ctx, id);
      return seeOther(reply, `${taskPath(id)}?notice=queued`);
    },
  );

  for (const [path, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    app.post<{ Params: { task: string } }>(
      `${BASE}/tasks/:task/${path}`,
      { config: { access: PAGE }, schema: { hide: true } },
      async (request, reply) => {
        const viewer = viewerOf(request);
        const id = idOf(request.params.task);
        viewer.back = taskPath(id);
        await deps.tasks.setEnabled(viewer.ctx, String(id), enabled);
        return seeOther(reply, `${taskPath(id)}?notice=${enabled ? 'enabled' : 'disabled'}`);
      },
    );
  }

  // Integration messages.
  app.get(MESSAGES, { config: { access: PAGE }, schema: { hide: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    viewer.back = MESSAGES;
    const raw = queryOf(request);
    const query = validateInput(MessageQuery, raw, 'query');
    const status: MessageStatus | undefined = query.status === undefined ? 'failed' : query.status || undefined;
    const list = listRequest(
      {
        ...pageParams(query),
      },
      { maxPageSize: deps.maxPageSize, defaultSort: 'id', defaultDirection: 'desc' },
    );
    const page = await deps.integrations.listMessages(viewer.ctx, { status }, list);
    return sendPage(
      reply,
      200,
      <MessagesPage viewer={viewer} status={status ?? ''} items={page.items} notice={noticeOf(raw, MESSAGE_NOTICES)}>
        <Pagination
          page={list.page.page}
          perPage={list.page.perPage}
          total={page.total}
          href={(n) => messagesHref(status ?? '', query, n)}
        />
      </MessagesPage>,
    );
  });

  app.post<{ Params: { message: string } }>(
    `${MESSAGES}/:message/retry`,
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      viewer.back = MESSAGES;
      await deps.integrations.retry(viewer.ctx, idOf(request.params.message));
      return seeOther(reply, `${MESSAGES}?notice=retried`);
    },
  );

  // Webhook endpoints.
  app.get(WEBHOOKS, { config: { access: PAGE }, schema: { hide: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const endpoints = await deps.webhooks.list(viewer.ctx);
    return sendPage(reply, 200, <WebhooksPage viewer={viewer} endpoints={endpoints} form={{ url: '', events: [] }} />);
  });

  app.post(WEBHOOKS, { config: { access: PAGE }, schema: { hide: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    viewer.back = WEBHOOKS;
    requirePermission(viewer.ctx, 'integrations.manage');
    const fields = formOf(request);
    const form: EndpointForm = { url: fields.url ?? '', events: checkedOf(fields, 'event') };
    try {
      // The service checks the address (public, http or https) and the event types, as `academy webhooks create` does.
      const created = await deps.webhooks.create(viewer.ctx, { url: form.url, events: form.events.length ? form.events : undefined });
      // The secret is on this answer only: no redirect, never stored where a page could show it again.
      return sendPage(reply, 200, <EndpointCreated viewer={viewer} endpoint={created.endpoint} secret={created.secret} />);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const endpoints = await deps.webhooks.list(viewer.ctx);
      return sendPage(reply, 422, <WebhooksPage viewer={viewer} endpoints={endpoints} form={form} errors={firstErrors(error)} />);
    }
  });

  app.get<{ Params: { endpoint: string } }>(
    `${WEBHOOKS}/:endpoint`,
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const id = idOf(request.params.endpoint);
      const [endpoints, deliveries] = await Promise.all([deps.webhooks.list(viewer.ctx), deps.webhooks.deliveries(viewer.ctx, id, 50)]);
      const endpoint = endpoints.find((row) => row.id === id);
      if (!endpoint) throw new NotFoundError();
      return sendPage(
        reply,
        200,
        <EndpointPage viewer={viewer} endpoint={endpoint} deliveries={deliveries} notice={noticeOf(request.query, ENDPOINT_NOTICES)} />,
      );
    },
  );

  app.post<{ Params: { endpoint: string } }>(
    `${WEBHOOKS}/:endpoint/test`,
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const id = idOf(request.params.endpoint);
      viewer.back = endpointPath(id);
      await deps.webhooks.test(viewer.ctx, id);
      return seeOther(reply, `${endpointPath(id)}?notice=tested`);
    },
  );

  app.post<{ Params: { delivery: string } }>(
    `${WEBHOOKS}/deliveries/:delivery/redeliver`,
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      viewer.back = WEBHOOKS;
      const delivery = await deps.webhooks.redeliver(viewer.ctx, idOf(request.params.delivery));
      return seeOther(reply, `${endpointPath(delivery.endpoint_id)}?notice=redelivered`);
    },
  );

  // API tokens: the token service is the operator's (`academy tokens`); here they need integrations.manage.
  const activeStaff = async (viewer: Viewer): Promise<User[]> =>
    (
      await deps.users.list(
        viewer.ctx,
        { status: 'active' },
        { page: { page: 1, perPage: 100, offset: 0 }, sort: 'name', direction: 'asc' },
      )
    ).items;

  app.get(TOKENS, { config: { access: PAGE }, schema: { hide: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const [tokens, staff] = await Promise.all([deps.tokens.list(), activeStaff(viewer)]);
    return sendPage(
      reply,
      200,
      <TokensPage
        viewer={viewer}
        tokens={tokens}
        staff={staff}
        form={{ name: '', scopes: [], user_id: '', expires_in_days: '', no_expiry: false }}
        notice={noticeOf(request.query, TOKEN_NOTICES)}
      />,
    );
  });

  app.post(TOKENS, { config: { access: PAGE }, schema: { hide: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    viewer.back = TOKENS;
    requirePermission(viewer.ctx, 'integrations.manage');
    const fields = formOf(request);
    const form: TokenForm = {
      name: fields.name ?? '',
      scopes: checkedOf(fields, 'scope'),
      user_id: fields.user_id ?? '',
      expires_in_days: (fields.expires_in_days ?? '').trim(),
      no_expiry: fields.no_expiry === 'on',
    };
    const staff = await activeStaff(viewer);
    let issued: IssuedToken;
    try {
      issued = await deps.tokens.create(tokenInput(form, staff), viewer.ctx);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const tokens = await deps.tokens.list();
      return sendPage(reply, 422, <TokensPage viewer={viewer} tokens={tokens} staff={staff} form={form} errors={firstErrors(error)} />);
    }
    return sendPage(reply, 200, <TokenIssued viewer={viewer} issued={issued} title="Token created" />);
  });

  app.post<{ Params: { token: string } }>(
    `${TOKENS}/:token/revoke`,
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      viewer.back = TOKENS;
      requirePermission(viewer.ctx, 'integrations.manage');
      await deps.tokens.revoke(idOf(request.params.token), viewer.ctx);
      return seeOther(reply, `${TOKENS}?notice=revoked`);
    },
  );

  app.post<{ Params: { token: string } }>(
    `${TOKENS}/:token/rotate`,
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      viewer.back = TOKENS;
      requirePermission(viewer.ctx, 'integrations.manage');
      // A revoked token cannot be rotated: the service's 422, shown as a page.
      const issued = await deps.tokens.rotate(idOf(request.params.token), viewer.ctx);
      return sendPage(reply, 200, <TokenIssued viewer={viewer} issued={issued} title="Token rotated" />);
    },
  );

  // Health: every enabled check, run now (as GET /health does).
  app.get(HEALTH, { config: { access: PAGE }, schema: { hide: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const report = await deps.health.runAll(viewer.ctx);
    return sendPage(reply, 200, <HealthPage viewer={viewer} report={report} now={viewer.ctx.clock.now().toISOString()} />);
  });
}

function messagesHref(status: string, query: MessageQuery, page: number): string {
  const params = new URLSearchParams({ status });
  if (query.per_page) params.set('per_page', query.per_page);
  if (page > 1) params.set('page', String(page));
  return `${MESSAGES}?${params}`;
}

/** The token service's input from the form: the acting user by their email, the expiry in days. */
function tokenInput(form: TokenForm, staff: User[]) {
  const errors: Record<string, string[]> = {};
  let userEmail: string | undefined;
  if (form.user_id) {
    userEmail = staff.find((user) => String(user.id) === form.user_id)?.email;
    if (!userEmail) errors.user = ['The acting user must be an active staff member.'];
  }
  let expiresInDays: number | null | undefined;
  if (form.no_expiry && form.expires_in_days) errors.expires_in_days = ['Give a number of days, or no expiry, not both.'];
  else if (form.no_expiry) expiresInDays = null;
  else if (form.expires_in_days) {
    if (!/^[0-9]{1,6}$/.test(form.expires_in_days)) errors.expires_in_days = ['The expiry must be a whole number of days.'];
    else expiresInDays = Number(form.expires_in_days);
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { name: form.name, scopes: form.scopes, userEmail, expiresInDays };
}

function OperationsLayout(props: { viewer: Viewer; title: string; current: string; children: Children }): JSX.Element {
  return (
    <Layout viewer={props.viewer} title={props.title} section="operations">
      <SubNav label="Operations" current={props.current} links={LINKS} />
      {props.children}
    </Layout>
  );
}

function TasksPage(props: {
  viewer: Viewer;
  tasks: Task[];
  counts: { name: string; state: JobState; n: number }[];
  oldest: { name: string; oldest: string }[];
}): JSX.Element {
  const { viewer } = props;
  const manage = may(viewer, 'operations.manage');
  const names = [...new Set(props.counts.map((row) => row.name))].sort();
  const countOf = (name: string, state: JobState) => props.counts.find((row) => row.name === name && row.state === state)?.n ?? 0;
  return (
    <OperationsLayout viewer={viewer} title="Operations" current={TASKS}>
      <h2>Scheduled tasks</h2>
      {props.tasks.length === 0 ? (
        <p>There are no scheduled tasks.</p>
      ) : (
        <ScrollingTable label="Scheduled tasks">
          <thead>
            <tr>
              <th scope="col">Task</th>
              <th scope="col">Schedule</th>
              <th scope="col">Next run</th>
              <th scope="col">Last run</th>
              <th scope="col">Outcome</th>
              {manage ? <th scope="col">Actions</th> : ''}
            </tr>
          </thead>
          <tbody>
            {props.tasks.map((task) => (
              <tr>
                <td>
                  <a href={taskPath(task.id)} safe>
                    {task.name}
                  </a>
                </td>
                <td class="nowrap" safe>
                  {task.enabled ? task.cron : `${task.cron} (disabled)`}
                </td>
                <td>
                  <Time iso={task.next_run_at} timeZone={viewer.timeZone} />
                </td>
                <td>
                  <Time iso={task.last_run_at} timeZone={viewer.timeZone} />
                </td>
                <td>{task.last_outcome ?? '—'}</td>
                {manage ? (
                  <td class="nowrap">
                    {task.enabled ? (
                      <PostButton action={`${taskPath(task.id)}/run`} csrf={viewer.csrf} label={`Run ${task.task_type} now`} />
                    ) : (
                      ''
                    )}
                  </td>
                ) : (
                  ''
                )}
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      )}
      <h2>Job queue</h2>
      {names.length === 0 ? (
        <p>The queue is empty.</p>
      ) : (
        <ScrollingTable label="Jobs by name and state">
          <thead>
            <tr>
              <th scope="col">Job</th>
              {JOB_STATES.map((state) => (
                <th scope="col" class="number" safe>
                  {state.charAt(0).toUpperCase() + state.slice(1)}
                </th>
              ))}
              <th scope="col">Oldest due, waiting since</th>
            </tr>
          </thead>
          <tbody>
            {names.map((name) => (
              <tr>
                <td class="nowrap" safe>
                  {name}
                </td>
                {JOB_STATES.map((state) => (
                  <td class="number" safe>
                    {String(countOf(name, state))}
                  </td>
                ))}
                <td>
                  <Time iso={props.oldest.find((row) => row.name === name)?.oldest ?? null} timeZone={viewer.timeZone} />
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      )}
    </OperationsLayout>
  );
}

function TaskPage(props: { viewer: Viewer; task: TaskDetail; notice: string | undefined }): JSX.Element {
  const { viewer, task } = props;
  const manage = may(viewer, 'operations.manage');
  return (
    <OperationsLayout viewer={viewer} title={task.name} current="">
      <Notice text={props.notice} />
      <p safe>{task.description}</p>
      <dl class="record">
        <dt>Type</dt>
        <dd safe>{task.task_type}</dd>
        <dt>Schedule</dt>
        <dd safe>{`${task.cron} (${task.timezone})`}</dd>
        <dt>Enabled</dt>
        <dd>{task.enabled ? 'Yes' : 'No'}</dd>
        <dt>Next run</dt>
        <dd>
          <Time iso={task.next_run_at} timeZone={viewer.timeZone} />
        </dd>
        <dt>Last run</dt>
        <dd>
          <Time iso={task.last_run_at} timeZone={viewer.timeZone} />
        </dd>
        <dt>Last outcome</dt>
        <dd>{task.last_outcome ?? '—'}</dd>
        <dt>Last error</dt>
        <dd safe>{task.last_error ?? '—'}</dd>
      </dl>
      {manage && (
        <div class="actions">
          {task.enabled ? <PostButton action={`${taskPath(task.id)}/run`} csrf={viewer.csrf} label="Run now" kind="primary" /> : ''}
          <PostButton
            action={`${taskPath(task.id)}/${task.enabled ? 'disable' : 'enable'}`}
            csrf={viewer.csrf}
            label={task.enabled ? 'Disable' : 'Enable'}
          />
        </div>
      )}
      <h2>Recent runs</h2>
      {task.recent_runs.length === 0 ? (
        <p>No run yet.</p>
      ) : (
        <ScrollingTable label="Recent runs">
          <thead>
            <tr>
              <th scope="col">Queued</th>
              <th scope="col">Trigger</th>
              <th scope="col">Status</th>
              <th scope="col">Started</th>
              <th scope="col" class="number">
                Took
              </th>
              <th scope="col">Error</th>
            </tr>
          </thead>
          <tbody>
            {task.recent_runs.map((run) => (
              <tr>
                <td>
                  <Time iso={run.queued_at} timeZone={viewer.timeZone} />
                </td>
                <td>{run.trigger}</td>
                <td>{run.status}</td>
                <td>
                  <Time iso={run.started_at} timeZone={viewer.timeZone} />
                </td>
                <td class="number nowrap" safe>
                  {run.duration_ms === null ? '—' : `${run.duration_ms} ms`}
                </td>
                <td safe>{run.error ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      )}
      <p>
        <a href={TASKS}>← Every task</a>
      </p>
    </OperationsLayout>
  );
}

function MessagesPage(props: {
  viewer: Viewer;
  status: string;
  items: IntegrationMessage[];
  notice: string | undefined;
  children: Children;
}): JSX.Element {
  const { viewer } = props;
  const manage = may(viewer, 'operations.manage');
  const emptyText: string = props.status ? `No message is ${props.status}.` : 'There are no integration messages.';
  return (
    <OperationsLayout viewer={viewer} title="Integration messages" current={MESSAGES}>
      <Notice text={props.notice} />
      <form class="filters" method="get" action={MESSAGES} aria-label="Filter the messages">
        <Select
          name="status"
          label="State"
          value={props.status}
          options={[
            ['', 'Any state'],
            ...MESSAGE_STATUSES.map((status) => [status, status.charAt(0).toUpperCase() + status.slice(1)] as const),
          ]}
        />
        <div class="buttons">
          <button type="submit" class="primary">
            Show messages
          </button>
        </div>
      </form>
      {props.items.length === 0 ? (
        <p class="notice" role="status" safe>
          {emptyText}
        </p>
      ) : (
        <ScrollingTable label="Integration messages">
          <thead>
            <tr>
              <th scope="col">Integration</th>
              <th scope="col">Event</th>
              <th scope="col">State</th>
              <th scope="col" class="number">
                Attempts
              </th>
              <th scope="col">Last error</th>
              <th scope="col">Created</th>
              {manage ? <th scope="col">Actions</th> : ''}
            </tr>
          </thead>
          <tbody>
            {props.items.map((message) => (
              <tr>
                <td safe>{message.integration_key}</td>
                <td class="nowrap" safe>
                  {message.event_type}
                </td>
                <td>{message.status}</td>
                <td class="number" safe>{`${message.attempts} / ${message.max_attempts}`}</td>
                <td safe>{message.last_error ?? '—'}</td>
                <td>
                  <Time iso={message.created_at} timeZone={viewer.timeZone} />
                </td>
                {manage ? (
                  <td>
                    {message.status === 'failed' ? (
                      <PostButton action={`${MESSAGES}/${message.id}/retry`} csrf={viewer.csrf} label={`Retry message ${message.id}`} />
                    ) : (
                      ''
                    )}
                  </td>
                ) : (
                  ''
                )}
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      )}
      {props.children}
    </OperationsLayout>
  );
}

function EventsText(props: { events: string[] | null }): JSX.Element {
  return <span safe>{props.events === null ? 'every event' : props.events.join(', ')}</span>;
}

function WebhooksPage(props: {
  viewer: Viewer;
  endpoints: EndpointView[];
  form: EndpointForm;
  errors?: Record<string, string>;
}): JSX.Element {
  const { viewer, form } = props;
  const errors = props.errors ?? {};
  return (
    <OperationsLayout viewer={viewer} title="Webhooks" current={WEBHOOKS}>
      <ErrorSummary errors={errors} order={ENDPOINT_FIELDS} />
      <h2>Endpoints</h2>
      {props.endpoints.length === 0 ? (
        <p>There are no webhook endpoints yet.</p>
      ) : (
        <ScrollingTable label="Webhook endpoints">
          <thead>
            <tr>
              <th scope="col">Address</th>
              <th scope="col">Events</th>
              <th scope="col">Enabled</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {props.endpoints.map((endpoint) => (
              <tr>
                <td>
                  <a href={endpointPath(endpoint.id)} safe>
                    {endpoint.url}
                  </a>
                </td>
                <td>
                  <EventsText events={endpoint.events} />
                </td>
                <td safe>{endpoint.enabled ? 'Yes' : `No (${endpoint.disabled_reason ?? 'disabled'})`}</td>
                <td>
                  <Time iso={endpoint.created_at} timeZone={viewer.timeZone} />
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      )}
      {may(viewer, 'integrations.manage') ? (
        <>
          <h2>New endpoint</h2>
          <form method="post" action={WEBHOOKS} novalidate>
            <input type="hidden" name="_csrf" value={viewer.csrf} />
            <TextField
              name="url"
              label="Address"
              hint="Where events are POSTed, signed (Standard Webhooks): an http or https URL on a public address."
              value={form.url}
              error={errors.url}
              autocomplete="off"
              spellcheck={false}
              required
            />
            <CheckboxGroup
              name="event"
              legend="Events"
              hint="None checked: every event, including ones added later."
              options={WEBHOOK_EVENT_TYPES.map((type) => [type, type] as const)}
              checked={form.events}
              error={errors.events}
            />
            <div class="actions">
              <button type="submit" class="primary">
                Create the endpoint
              </button>
            </div>
          </form>
        </>
      ) : (
        <p>Creating an endpoint needs the integrations.manage permission, which you do not hold.</p>
      )}
    </OperationsLayout>
  );
}

function EndpointCreated(props: { viewer: Viewer; endpoint: EndpointView; secret: string }): JSX.Element {
  const { endpoint } = props;
  return (
    <OperationsLayout viewer={props.viewer} title="Endpoint created" current={WEBHOOKS}>
      <p class="notice" role="status">
        The endpoint is created. Copy its signing secret now: it is shown on this page only, never again.
      </p>
      <SecretOnce
        label="Signing secret"
        value={props.secret}
        hint="The receiver checks each request's webhook-signature with it (Standard Webhooks)."
      />
      <dl class="record">
        <dt>Address</dt>
        <dd safe>{endpoint.url}</dd>
        <dt>Events</dt>
        <dd>
          <EventsText events={endpoint.events} />
        </dd>
      </dl>
      <p>
        <a href={endpointPath(endpoint.id)}>Go to the endpoint</a>
      </p>
    </OperationsLayout>
  );
}

function EndpointPage(props: {
  viewer: Viewer;
  endpoint: EndpointView;
  deliveries: DeliveryView[];
  notice: string | undefined;
}): JSX.Element {
  const { viewer, endpoint } = props;
  const manage = may(viewer, 'integrations.manage');
  return (
    <OperationsLayout viewer={viewer} title={`Webhook endpoint ${endpoint.id}`} current="">
      <Notice text={props.notice} />
      <dl class="record">
        <dt>Address</dt>
        <dd safe>{endpoint.url}</dd>
        <dt>Events</dt>
        <dd>
          <EventsText events={endpoint.events} />
        </dd>
        <dt>Enabled</dt>
        <dd safe>{endpoint.enabled ? 'Yes' : `No (${endpoint.disabled_reason ?? 'disabled'})`}</dd>
        <dt>Created</dt>
        <dd>
          <Time iso={endpoint.created_at} timeZone={viewer.timeZone} />
        </dd>
      </dl>
      {manage && endpoint.enabled ? (
        <div class="actions">
          <PostButton action={`${endpointPath(endpoint.id)}/test`} csrf={viewer.csrf} label="Send a test event" kind="primary" />
        </div>
      ) : (
        ''
      )}
      <h2>Recent deliveries</h2>
      {props.deliveries.length === 0 ? (
        <p>No delivery yet.</p>
      ) : (
        <ScrollingTable label="Recent deliveries">
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">State</th>
              <th scope="col" class="number">
                Attempts
              </th>
              <th scope="col">Last answer</th>
              <th scope="col">Created</th>
              <th scope="col">Ended</th>
              {manage ? <th scope="col">Actions</th> : ''}
            </tr>
          </thead>
          <tbody>
            {props.deliveries.map((delivery) => (
              <tr>
                <td class="nowrap" safe>
                  {delivery.event_type}
                </td>
                <td safe>{delivery.status}</td>
                <td class="number" safe>
                  {String(delivery.attempts)}
                </td>
                <td safe>{delivery.last_status_code !== null ? `HTTP ${delivery.last_status_code}` : (delivery.last_error ?? '—')}</td>
                <td>
                  <Time iso={delivery.created_at} timeZone={viewer.timeZone} />
                </td>
                <td>
                  <Time iso={delivery.completed_at} timeZone={viewer.timeZone} />
                </td>
                {manage ? (
                  <td>
                    {delivery.status !== 'pending' && endpoint.enabled ? (
                      <PostButton
                        action={`${WEBHOOKS}/deliveries/${delivery.id}/redeliver`}
                        csrf={viewer.csrf}
                        label={`Redeliver ${delivery.event_type}`}
                      />
                    ) : (
                      ''
                    )}
                  </td>
                ) : (
                  ''
                )}
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      )}
      <p>
        <a href={WEBHOOKS}>← Every endpoint</a>
      </p>
    </OperationsLayout>
  );
}

function TokensPage(props: {
  viewer: Viewer;
  tokens: TokenView[];
  staff: User[];
  form: TokenForm;
  notice?: string | undefined;
  errors?: Record<string, string>;
}): JSX.Element {
  const { viewer, form } = props;
  const errors = props.errors ?? {};
  const manage = may(viewer, 'integrations.manage');
  const tokens = [...props.tokens].sort((a, b) => b.id - a.id);
  const names = new Map(props.staff.map((user) => [user.id, user.name]));
  return (
    <OperationsLayout viewer={viewer} title="API tokens" current={TOKENS}>
      <Notice text={props.notice} />
      <ErrorSummary errors={errors} order={TOKEN_FIELDS} />
      {tokens.length === 0 ? (
        <p>There are no API tokens yet.</p>
      ) : (
        <ScrollingTable label="API tokens">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Starts with</th>
              <th scope="col">Scopes</th>
              <th scope="col">Acts for</th>
              <th scope="col">Expires</th>
              <th scope="col">Last used</th>
              <th scope="col">Revoked</th>
              {manage ? <th scope="col">Actions</th> : ''}
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr>
                <td safe>{token.name}</td>
                <td class="nowrap" safe>{`${token.prefix}…`}</td>
                <td safe>{token.scopes.join(', ')}</td>
                <td>
                  {token.user_id === null ? (
                    'nobody'
                  ) : (
                    <a href={staffPath(token.user_id)} safe>
                      {names.get(token.user_id) ?? `user ${token.user_id}`}
                    </a>
                  )}
                </td>
                <td>{token.expires_at === null ? 'never' : <Time iso={token.expires_at} timeZone={viewer.timeZone} />}</td>
                <td>
                  <Time iso={token.last_used_at} timeZone={viewer.timeZone} />
                </td>
                <td>
                  <Time iso={token.revoked_at} timeZone={viewer.timeZone} />
                </td>
                {manage ? (
                  <td class="nowrap">
                    {token.revoked_at === null ? (
                      <>
                        <PostButton action={`${TOKENS}/${token.id}/rotate`} csrf={viewer.csrf} label={`Rotate ${token.name}`} />{' '}
                        <PostButton action={`${TOKENS}/${token.id}/revoke`} csrf={viewer.csrf} label={`Revoke ${token.name}`} />
                      </>
                    ) : (
                      ''
                    )}
                  </td>
                ) : (
                  ''
                )}
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      )}
      {manage ? (
        <>
          <h2>New token</h2>
          <form method="post" action={TOKENS} novalidate>
            <input type="hidden" name="_csrf" value={viewer.csrf} />
            <TextField
              name="name"
              label="Name"
              hint="To recognise the token by, e.g. crm-sync."
              value={form.name}
              error={errors.name}
              required
            />
            <CheckboxGroup
              name="scope"
              legend="Scopes"
              hint="What the token may do through the API; at least one."
              options={SCOPE_OPTIONS}
              checked={form.scopes}
              error={errors.scopes}
            />
            <Select
              name="user_id"
              label="Acts for (optional)"
              hint="A token that acts for a staff member may change only what they may (workflow decisions need one)."
              value={form.user_id}
              error={errors.user}
              options={[['', 'Nobody'], ...props.staff.map((user) => [String(user.id), `${user.name} (${user.email})`] as const)]}
            />
            <TextField
              name="expires_in_days"
              label="Expires in (days, optional)"
              hint="Empty for the configured default."
              value={form.expires_in_days}
              error={errors.expires_in_days}
              inputmode="numeric"
            />
            <div class="checkbox field">
              <label>
                <input type="checkbox" name="no_expiry" value="on" checked={form.no_expiry} /> Never expires
              </label>
            </div>
            <div class="actions">
              <button type="submit" class="primary">
                Create the token
              </button>
            </div>
          </form>
        </>
      ) : (
        <p>Creating a token needs the integrations.manage permission, which you do not hold.</p>
      )}
    </OperationsLayout>
  );
}

function TokenIssued(props: { viewer: Viewer; issued: IssuedToken; title: string }): JSX.Element {
  const { record } = props.issued;
  return (
    <OperationsLayout viewer={props.viewer} title={props.title} current={TOKENS}>
      <p class="notice" role="status">
        Copy the token now: it is shown on this page only, never again. Only a hash of it is kept.
      </p>
      <SecretOnce label="Token" value={props.issued.token} hint="Send it as Authorization: Bearer <token>." />
      <dl class="record">
        <dt>Name</dt>
        <dd safe>{record.name}</dd>
        <dt>Scopes</dt>
        <dd safe>{record.scopes.join(', ')}</dd>
        <dt>Expires</dt>
        <dd>{record.expires_at === null ? 'never' : <Time iso={record.expires_at} timeZone={props.viewer.timeZone} />}</dd>
      </dl>
      <p>
        <a href={TOKENS}>← Every token</a>
      </p>
    </OperationsLayout>
  );
}

function HealthPage(props: { viewer: Viewer; report: HealthReport; now: string }): JSX.Element {
  const { viewer, report } = props;
  return (
    <OperationsLayout viewer={viewer} title="Health" current={HEALTH}>
      <p>
        <span safe>{`Overall: ${HEALTH_LABELS[report.status] ?? report.status}, checked `}</span>
        <Time iso={props.now} timeZone={viewer.timeZone} />.
      </p>
      <ScrollingTable label="Health checks">
        <thead>
          <tr>
            <th scope="col">Check</th>
            <th scope="col">Result</th>
            <th scope="col" class="number">
              Observed
            </th>
            <th scope="col">Detail</th>
          </tr>
        </thead>
        <tbody>
          {report.checks.map((check) => (
            <tr>
              <td safe>{check.name}</td>
              <td safe>{HEALTH_LABELS[check.status] ?? check.status}</td>
              <td class="number nowrap" safe>
                {check.observed_value === null ? '—' : `${check.observed_value} ${check.observed_unit ?? ''}`}
              </td>
              <td safe>{check.output ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </ScrollingTable>
    </OperationsLayout>
  );
}
