import type { Children } from '@kitajs/html';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { listRequest } from '../../http/list.ts';
import { StringEnum } from '../../http/schemas.ts';
import { ValidationError } from '../../platform/errors.ts';
import { PERMISSION_NAMES, PERMISSIONS, ROLE_NAMES, ROLES, requirePermission } from '../../platform/permissions.ts';
import { validateInput } from '../../platform/validation.ts';
import { firstErrors } from '../staff-auth/pages.ts';
import type { SessionRow } from '../staff-auth/repository.ts';
import type { StaffAuthService } from '../staff-auth/service.ts';
import { formOf } from '../staff-auth/web.ts';
import { type UserMove, userLifecycle } from '../users/lifecycle.ts';
import { StaffCreate, USER_STATES, type User, UserGrant, type UserState } from '../users/schemas.ts';
import type { UserService } from '../users/service.ts';
import { CheckboxGroup, checkedOf, foldItemErrors, idOf, Notice, noticeOf } from './admin-parts.tsx';
import { PAGE, pageParams, queryOf, seeOther, sendPage, viewerOf } from './guard.ts';
import { ErrorSummary, Layout, Pagination, PostButton, ScrollingTable, Select, TextField, Time } from './layout.tsx';
import { may, type Viewer } from './viewer.ts';

export interface StaffPageDeps {
  users: UserService;
  auth: StaffAuthService;
  maxPageSize: number;
}

const STATE_LABELS: Record<UserState, string> = {
  draft: 'Draft (not invited)',
  invited: 'Invited',
  active: 'Active',
  suspended: 'Suspended',
  archived: 'Archived',
};

/** The lifecycle moves the console offers (accepting the invitation is the invitee's own move). */
const MOVES = ['invite', 'suspend', 'reactivate', 'archive'] as const satisfies readonly UserMove[];
type ConsoleMove = (typeof MOVES)[number];

const MOVE_LABELS: Record<ConsoleMove, string> = {
  invite: 'Send the invitation',
  suspend: 'Suspend',
  reactivate: 'Reactivate',
  archive: 'Archive (final)',
};

const MOVE_NOTICES: Record<ConsoleMove, string> = {
  invite: 'The invitation is on its way.',
  suspend: 'The user is suspended and signed out everywhere.',
  reactivate: 'The user is active again.',
  archive: 'The user is archived.',
};

const NOTICES: Record<string, string> = {
  ...MOVE_NOTICES,
  invited: 'The user is created and the invitation is on its way.',
  granted: 'The roles and permissions are saved.',
  'signed-out': 'Every session of the user has ended.',
};

const WholeNumber = Type.String({ pattern: '^[1-9][0-9]{0,8}$', 'x-message': 'must be a whole number from 1 up' });

/** The staff list's query: a state and the page, as the URL gives them. */
const StaffQuery = Type.Object({
  status: Type.Optional(StringEnum(['', ...USER_STATES])),
  page: Type.Optional(WholeNumber),
  per_page: Type.Optional(WholeNumber),
});
type StaffQuery = Static<typeof StaffQuery>;

/** A lifecycle move's form. */
const MoveForm = Type.Object({ move: StringEnum(MOVES) }, { additionalProperties: false });

/** The fields of the invitation form, in its order (the error summary follows it). */
const INVITE_FIELDS = ['name', 'email', 'job_title', 'roles', 'permissions'] as const;
type InviteForm = { name?: string; email?: string; job_title?: string; roles: string[]; permissions: string[] };

const ROLE_OPTIONS = ROLE_NAMES.map((role) => {
  const held: readonly string[] = ROLES[role];
  const hint = role === 'administrator' ? 'every permission' : held.length ? held.join(', ') : 'reads only';
  return [role, role.charAt(0).toUpperCase() + role.slice(1), hint] as const;
});
const PERMISSION_OPTIONS = PERMISSION_NAMES.map((name) => [name, name, PERMISSIONS[name]] as const);

/** Names as a list in words, or `none` for none. */
const listText = (names: readonly string[], none: string): string => (names.length ? names.join(', ') : none);

export const staffPath = (id: number) => `/console/staff/${id}`;

/**
 * The staff pages (issue 41, "Staff"): the list with its state filter, a staff member's page with the
 * lifecycle moves their state allows, their roles and permissions and their open sessions, and the
 * form that creates and invites a new one. Every change is the users service's (or staff-auth's for
 * the sessions), made as the signed-in user: `users.manage`, or a 403 page and nothing changed.
 */
export function staffPages(app: FastifyInstance, deps: StaffPageDeps): void {
  const { users } = deps;

  app.get('/console/staff', { config: { access: PAGE }, schema: { hide: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    viewer.back = '/console/staff';
    const query = validateInput(StaffQuery, queryOf(request), 'query');
    const list = listRequest(
      {
        ...pageParams(query),
        sort: 'name',
      },
      { maxPageSize: deps.maxPageSize, defaultSort: 'name' },
    );
    const page = await users.list(viewer.ctx, { status: query.status || undefined }, list);
    return sendPage(
      reply,
      200,
      <StaffList viewer={viewer} query={query} items={page.items}>
        <Pagination page={list.page.page} perPage={list.page.perPage} total={page.total} href={(n) => staffHref(query, n)} />
      </StaffList>,
    );
  });

  app.get('/console/staff/new', { config: { access: PAGE }, schema: { hide: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    return sendPage(reply, 200, <InvitePage viewer={viewer} form={{ roles: [], permissions: [] }} />);
  });

  app.post('/console/staff', { config: { access: PAGE }, schema: { hide: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    viewer.back = '/console/staff/new';
    requirePermission(viewer.ctx, 'users.manage');
    const fields = formOf(request);
    const form: InviteForm = {
      name: fields.name ?? '',
      email: fields.email ?? '',
      job_title: fields.job_title ?? '',
      roles: checkedOf(fields, 'role'),
      permissions: checkedOf(fields, 'permission'),
    };
    let created: User;
    try {
      // The schema of `academy admin users create`: the API's fields with the roles and permissions.
      const input = validateInput(
        StaffCreate,
        {
          name: form.name,
          email: form.email,
          ...(form.job_title ? { job_title: form.job_title } : {}),
          roles: form.roles,
          permissions: form.permissions,
        },
        'data',
      );
      created = await users.create(viewer.ctx, input);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return sendPage(reply, 422, <InvitePage viewer={viewer} form={form} errors={foldItemErrors(firstErrors(error))} />);
    }
    await users.invite(viewer.ctx, created.id);
    return seeOther(reply, `${staffPath(created.id)}?notice=invited`);
  });

  app.get<{ Params: { user: string } }>(
    '/console/staff/:user',
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const id = idOf(request.params.user);
      const user = await users.get(viewer.ctx, id);
      const sessions = await deps.auth.sessions(id);
      return sendPage(reply, 200, <StaffPage viewer={viewer} user={user} sessions={sessions} notice={noticeOf(request.query, NOTICES)} />);
    },
  );

  app.post<{ Params: { user: string } }>(
    '/console/staff/:user/move',
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const id = idOf(request.params.user);
      viewer.back = staffPath(id);
      const { move } = validateInput(MoveForm, { move: formOf(request).move ?? '' }, 'data');
      await users[move](viewer.ctx, id);
      return seeOther(reply, `${staffPath(id)}?notice=${move}`);
    },
  );

  app.post<{ Params: { user: string } }>(
    '/console/staff/:user/grant',
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const id = idOf(request.params.user);
      viewer.back = staffPath(id);
      requirePermission(viewer.ctx, 'users.manage');
      const fields = formOf(request);
      const roles = checkedOf(fields, 'role');
      const permissions = checkedOf(fields, 'permission');
      try {
        // The schema of `academy admin users grant`: both sets, each replacing the user's.
        const input = validateInput(UserGrant, { roles, permissions }, 'data');
        await users.grant(viewer.ctx, id, input);
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        const user = await users.get(viewer.ctx, id);
        const sessions = await deps.auth.sessions(id);
        return sendPage(
          reply,
          422,
          <StaffPage
            viewer={viewer}
            user={user}
            sessions={sessions}
            grant={{ roles, permissions }}
            errors={foldItemErrors(firstErrors(error))}
          />,
        );
      }
      return seeOther(reply, `${staffPath(id)}?notice=granted`);
    },
  );

  app.post<{ Params: { user: string } }>(
    '/console/staff/:user/sign-out',
    { config: { access: PAGE }, schema: { hide: true } },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const id = idOf(request.params.user);
      viewer.back = staffPath(id);
      await deps.auth.signOutUser(viewer.ctx, id);
      return seeOther(reply, `${staffPath(id)}?notice=signed-out`);
    },
  );
}

function staffHref(query: StaffQuery, page: number): string {
  const params = new URLSearchParams();
  if (query.status) params.set('status', query.status);
  if (query.per_page) params.set('per_page', query.per_page);
  if (page > 1) params.set('page', String(page));
  const text = params.toString();
  return text ? `/console/staff?${text}` : '/console/staff';
}

function StateTag(props: { state: UserState }): JSX.Element {
  return (
    <span class="state" safe>
      {STATE_LABELS[props.state]}
    </span>
  );
}

function StaffList(props: { viewer: Viewer; query: StaffQuery; items: User[]; children: Children }): JSX.Element {
  const { viewer, query } = props;
  return (
    <Layout viewer={viewer} title="Staff" section="staff">
      {may(viewer, 'users.manage') && (
        <div class="actions">
          <a class="button" href="/console/staff/new">
            Invite a staff member
          </a>
        </div>
      )}
      <form class="filters" method="get" action="/console/staff" aria-label="Filter the staff">
        <Select
          name="status"
          label="State"
          value={query.status ?? ''}
          options={[['', 'Any state'], ...USER_STATES.map((state) => [state, STATE_LABELS[state]] as const)]}
        />
        {query.per_page ? <input type="hidden" name="per_page" value={query.per_page} /> : ''}
        <div class="buttons">
          <button type="submit" class="primary">
            Show staff
          </button>
          {query.status ? <a href="/console/staff">Clear the filter</a> : ''}
        </div>
      </form>
      {props.items.length === 0 ? (
        <p class="notice" role="status">
          {query.status ? 'No staff member is in this state.' : 'There are no staff members yet.'}
        </p>
      ) : (
        <ScrollingTable label="Staff members">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">State</th>
              <th scope="col">Roles</th>
              <th scope="col">Last change</th>
            </tr>
          </thead>
          <tbody>
            {props.items.map((user) => (
              <tr>
                <td>
                  <a href={staffPath(user.id)} safe>
                    {user.name}
                  </a>
                </td>
                <td safe>{user.email}</td>
                <td>
                  <StateTag state={user.status} />
                </td>
                <td safe>{listText(user.roles, '—')}</td>
                <td>
                  <Time iso={user.updated_at} timeZone={viewer.timeZone} />
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      )}
      {props.children}
    </Layout>
  );
}

function InvitePage(props: { viewer: Viewer; form: InviteForm; errors?: Record<string, string> }): JSX.Element {
  const { viewer, form } = props;
  const errors = props.errors ?? {};
  if (!may(viewer, 'users.manage')) {
    return (
      <Layout viewer={viewer} title="Invite a staff member" section="staff">
        <p class="notice">Inviting staff needs the users.manage permission, which you do not hold.</p>
        <p>
          <a href="/console/staff">Back to the staff</a>
        </p>
      </Layout>
    );
  }
  const title = Object.keys(errors).length ? 'Invite a staff member (not sent)' : 'Invite a staff member';
  return (
    <Layout viewer={viewer} title={title} section="staff">
      <ErrorSummary errors={errors} order={INVITE_FIELDS} />
      <p>The new staff member gets an email with a link to choose a password (or a passkey) and sign in.</p>
      <form method="post" action="/console/staff" novalidate>
        <input type="hidden" name="_csrf" value={viewer.csrf} />
        <TextField name="name" label="Full name" value={form.name} error={errors.name} autocomplete="off" required />
        <TextField name="email" label="Email" value={form.email} error={errors.email} autocomplete="off" spellcheck={false} required />
        <TextField name="job_title" label="Job title (optional)" value={form.job_title} error={errors.job_title} autocomplete="off" />
        <CheckboxGroup
          name="role"
          legend="Roles"
          hint="Each role is a set of permissions; none leaves the user reading only."
          options={ROLE_OPTIONS}
          checked={form.roles}
          error={errors.roles}
        />
        <CheckboxGroup
          name="permission"
          legend="Further permissions (optional)"
          options={PERMISSION_OPTIONS}
          checked={form.permissions}
          error={errors.permissions}
        />
        <div class="actions">
          <button type="submit" class="primary">
            Create and invite
          </button>
          <a href="/console/staff">Cancel</a>
        </div>
      </form>
    </Layout>
  );
}

function StaffPage(props: {
  viewer: Viewer;
  user: User;
  sessions: SessionRow[];
  notice?: string | undefined;
  grant?: { roles: string[]; permissions: string[] };
  errors?: Record<string, string>;
}): JSX.Element {
  const { viewer, user } = props;
  const manage = may(viewer, 'users.manage');
  const errors = props.errors ?? {};
  const moves = MOVES.filter((move) => (userLifecycle.moves[move].from as readonly string[]).includes(user.status));
  const grant = props.grant ?? { roles: user.roles, permissions: user.permissions };
  const effective: string = user.effective_permissions.length ? user.effective_permissions.join(', ') : 'none (reads only)';
  return (
    <Layout viewer={viewer} title={user.name} section="staff">
      <Notice text={props.notice} />
      <ErrorSummary errors={errors} order={['roles', 'permissions']} />
      <p>
        <a href="/console/staff">← The staff</a>
      </p>
      <dl class="record">
        <dt>State</dt>
        <dd>
          <StateTag state={user.status} />
        </dd>
        <dt>Email</dt>
        <dd safe>{user.email}</dd>
        <dt>Job title</dt>
        <dd safe>{user.job_title ?? '—'}</dd>
        <dt>May</dt>
        <dd safe>{effective}</dd>
        <dt>Invited</dt>
        <dd>
          <Time iso={user.invited_at} timeZone={viewer.timeZone} />
        </dd>
        <dt>Active since</dt>
        <dd>
          <Time iso={user.activated_at} timeZone={viewer.timeZone} />
        </dd>
        <dt>Suspended</dt>
        <dd>
          <Time iso={user.suspended_at} timeZone={viewer.timeZone} />
        </dd>
        <dt>Archived</dt>
        <dd>
          <Time iso={user.archived_at} timeZone={viewer.timeZone} />
        </dd>
      </dl>
      {manage && moves.length > 0 && (
        <>
          <h2>State</h2>
          <div class="actions">
            {moves.map((move) => (
              <PostButton
                action={`${staffPath(user.id)}/move`}
                csrf={viewer.csrf}
                label={MOVE_LABELS[move]}
                fields={{ move }}
                kind={move === 'invite' || move === 'reactivate' ? 'primary' : 'secondary'}
              />
            ))}
          </div>
        </>
      )}
      <h2>Roles and permissions</h2>
      {manage ? (
        <form method="post" action={`${staffPath(user.id)}/grant`} novalidate>
          <input type="hidden" name="_csrf" value={viewer.csrf} />
          <CheckboxGroup name="role" legend="Roles" options={ROLE_OPTIONS} checked={grant.roles} error={errors.roles} />
          <CheckboxGroup
            name="permission"
            legend="Further permissions"
            hint="Granted beside those of the roles."
            options={PERMISSION_OPTIONS}
            checked={grant.permissions}
            error={errors.permissions}
          />
          <div class="actions">
            <button type="submit" class="primary">
              Save the roles and permissions
            </button>
          </div>
        </form>
      ) : (
        <dl class="record">
          <dt>Roles</dt>
          <dd safe>{listText(user.roles, 'none')}</dd>
          <dt>Further permissions</dt>
          <dd safe>{listText(user.permissions, 'none')}</dd>
        </dl>
      )}
      <h2>Open sessions</h2>
      {props.sessions.length === 0 ? (
        <p>No open session.</p>
      ) : (
        <>
          <ScrollingTable label="Open sessions">
            <thead>
              <tr>
                <th scope="col">Signed in</th>
                <th scope="col">How</th>
                <th scope="col">Last seen</th>
                <th scope="col">Browser</th>
              </tr>
            </thead>
            <tbody>
              {props.sessions.map((session) => (
                <tr>
                  <td>
                    <Time iso={session.created_at} timeZone={viewer.timeZone} />
                  </td>
                  <td safe>{session.method}</td>
                  <td>
                    <Time iso={session.last_seen_at} timeZone={viewer.timeZone} />
                  </td>
                  <td safe>{session.user_agent ?? 'unknown browser'}</td>
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
          {manage && (
            <div class="actions">
              <PostButton action={`${staffPath(user.id)}/sign-out`} csrf={viewer.csrf} label="Sign out everywhere" />
            </div>
          )}
        </>
      )}
    </Layout>
  );
}
