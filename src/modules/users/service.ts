import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { ListRequest, Page } from '../../db/list.ts';
import type { DB } from '../../db/schema.ts';
import { audit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { normaliseEmail } from '../../platform/email.ts';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../platform/errors.ts';
import { effectivePermissions, type Permission, type Role, requirePermission } from '../../platform/permissions.ts';
import type { NotificationService } from '../notifications/service.ts';
import { hashInvitationToken, INVITATION_TOKEN } from './invitations.ts';
import { MOVE_NOTIFICATIONS, moveTimestamps, type UserMove } from './lifecycle.ts';
import type { InvitationRepository, StaffFilter, StaffRepository, StaffRow } from './repository.ts';
import type { StaffCreate, User, UserGrant, UserPatch, UserSort } from './schemas.ts';

export function presentUser(row: StaffRow): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    job_title: row.job_title,
    status: row.status,
    roles: [...row.roles],
    permissions: [...row.permissions],
    effective_permissions: effectivePermissions(row.roles, row.permissions),
    invited_at: row.invited_at,
    activated_at: row.activated_at,
    suspended_at: row.suspended_at,
    archived_at: row.archived_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * Roles and permissions are the administration's to give: the operator, the system, or a staff user
 * holding `users.manage` (the console, `academy admin --as`), never an API token. A user without it
 * is refused (403); a token is told the fields do not exist.
 */
function mayGrant(ctx: ServiceContext): boolean {
  if (ctx.actor.kind === 'token') return false;
  requirePermission(ctx, 'users.manage');
  return true;
}

/** The audit trail's verb of each lifecycle move: `user.invited`, `user.suspended`. */
const MOVE_ACTIONS: Record<UserMove, string> = {
  invite: 'invited',
  activate: 'activated',
  suspend: 'suspended',
  reactivate: 'reactivated',
  archive: 'archived',
};

export interface UserServiceDeps {
  db: Kysely<DB>;
  dialect: Dialect;
  staff: StaffRepository;
  invitations: InvitationRepository;
  notifications: NotificationService;
  /** Resources whose representations show a staff user's name, touched when it changes (`updated_since`). */
  namedIn: { touchForPerson(executor: Kysely<DB>, userId: number, now: string): Promise<void> };
  /** The user's console sessions, ended by a suspension or an archival. */
  sessions: { endSessions(executor: Kysely<DB>, userId: number, reason: string, now: string): Promise<number> };
}

export function createUserService(deps: UserServiceDeps) {
  const { staff } = deps;

  const emailTaken = (email: string) => ValidationError.field('email', `The email ${email} is already taken by another user.`);

  /** A set of roles or permissions as stored: each once, sorted. */
  const nameSet = <T extends Role | Permission>(names: readonly T[]): T[] => [...new Set(names)].sort();

  async function find(id: number, executor?: Kysely<DB>): Promise<StaffRow> {
    const row = await staff.find(id, executor);
    if (!row) throw new NotFoundError();
    return row;
  }

  /**
   * Applies a lifecycle move to a staff user and queues its notification, in one transaction. A
   * student's id is a 404 like a missing one; a move the state does not allow is a 409
   * `invalid_transition`, and then nothing is written.
   */
  async function move(ctx: ServiceContext, id: number, name: UserMove, trx: Kysely<DB>): Promise<StaffRow> {
    const user = await find(id, trx);
    const now = ctx.clock.now().toISOString();
    await staff.lifecycle.apply(trx, user.id, name, {
      set: { ...moveTimestamps(name, now), updated_at: now },
      effects: async (trx) => {
        // An activated or archived user has no use for an open invitation link.
        if (name === 'activate' || name === 'archive') await deps.invitations.closeFor(trx, user.id, now);
        // A suspended or archived user is signed out everywhere, in the move's transaction.
        if (name === 'suspend' || name === 'archive')
          await deps.sessions.endSessions(trx, user.id, `${name === 'suspend' ? 'suspended' : 'archived'}`, now);
        await deps.notifications.notify(trx, ctx, MOVE_NOTIFICATIONS[name], { id: user.id, email: user.email });
      },
    });
    const moved = await find(user.id, trx);
    await audit.record(trx, ctx, {
      action: `user.${MOVE_ACTIONS[name]}`,
      subject: { type: 'user', id: user.id },
      changes: audit.changes(presentUser(user), presentUser(moved)),
    });
    ctx.logger.info({ userId: user.id, move: name }, 'user lifecycle move');
    return moved;
  }

  const transition = (name: UserMove) => async (ctx: ServiceContext, id: number) => {
    requirePermission(ctx, 'users.manage');
    return presentUser(await deps.db.transaction().execute((trx) => move(ctx, id, name, trx)));
  };

  return {
    async list(_ctx: ServiceContext, filter: StaffFilter, list: ListRequest<UserSort>): Promise<Page<User>> {
      const page = await staff.list(filter, list);
      return { items: page.items.map(presentUser), total: page.total };
    },

    async get(_ctx: ServiceContext, id: number): Promise<User> {
      return presentUser(await find(id));
    },

    /**
     * Creates a staff user in `draft`; nothing is sent until the user is invited. `permissions` may be
     * given by the administration only (`academy admin users create`), which may also create the user
     * `active` (the first administrator, who gets in by a sign-in link rather than an invitation).
     */
    async create(ctx: ServiceContext, input: StaffCreate, options: { active?: boolean } = {}): Promise<User> {
      // The API's schema has no permissions field; a caller other than the administration is told so alike.
      requirePermission(ctx, 'users.manage');
      if (options.active && ctx.actor.kind !== 'operator')
        throw new PermissionDeniedError('Only the administration creates an active user.');
      for (const field of ['roles', 'permissions'] as const) {
        if (input[field] !== undefined && !mayGrant(ctx)) throw ValidationError.field(field, `The ${field} field is not recognised.`);
      }
      const name = input.name.trim();
      const email = normaliseEmail(input.email);
      if (await staff.emailTaken(email)) throw emailTaken(email);

      const now = ctx.clock.now().toISOString();
      try {
        const row = await deps.db.transaction().execute(async (trx) => {
          const created = await staff.insert(trx, {
            name,
            email,
            job_title: input.job_title?.trim() ?? null,
            roles: nameSet(input.roles ?? []),
            permissions: nameSet(input.permissions ?? []),
            active: options.active === true,
            now,
          });
          await audit.record(trx, ctx, {
            action: 'user.created',
            subject: { type: 'user', id: created.id },
            changes: audit.changes(null, presentUser(created)),
          });
          return created;
        });
        ctx.logger.info({ userId: row.id }, 'staff user created');
        return presentUser(row);
      } catch (error) {
        // Taken between the check and the insert: the unique index decides.
        if (isUniqueViolation(error)) throw emailTaken(email);
        throw error;
      }
    },

    /**
     * Changes the name, email or job title; only the fields given. Never the status or the permissions.
     * `expect` is checked on the current user, locked in the update's transaction (If-Match).
     */
    async update(ctx: ServiceContext, id: number, patch: UserPatch, expect?: (current: User) => void): Promise<User> {
      requirePermission(ctx, 'users.manage');
      const name = patch.name?.trim();
      const email = patch.email === undefined ? undefined : normaliseEmail(patch.email);
      const jobTitle = patch.job_title === undefined ? undefined : (patch.job_title?.trim() ?? null);
      if (email !== undefined && (await staff.emailTaken(email, id))) throw emailTaken(email);
      const now = ctx.clock.now().toISOString();
      try {
        return presentUser(
          await deps.db.transaction().execute(async (trx) => {
            if (expect) await staff.lock(trx, deps.dialect, id);
            // Read once: for If-Match, to tell whether the name shown elsewhere, or the email, changes, and for the audit trail.
            const current = await find(id, trx);
            if (expect) expect(presentUser(current));
            const changes = {
              ...(name !== undefined ? { name } : {}),
              ...(email !== undefined ? { email } : {}),
              ...(jobTitle !== undefined ? { job_title: jobTitle } : {}),
              updated_at: now,
            };
            if (!(await staff.update(trx, id, changes))) throw new NotFoundError();
            if (name !== undefined && current.name !== name) await deps.namedIn.touchForPerson(trx, id, now);
            // A link sent to the old address (a mistyped one, say) must not activate the account.
            if (email !== undefined && current.email !== email) await deps.invitations.closeFor(trx, id, now);
            const updated = await find(id, trx);
            await audit.record(trx, ctx, {
              action: 'user.updated',
              subject: { type: 'user', id },
              changes: audit.changes(presentUser(current), presentUser(updated)),
            });
            return updated;
          }),
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw emailTaken(email as string);
        throw error;
      }
    },

    /** draft → invited, with the invitation email (its link is made when it is sent). */
    invite: transition('invite'),
    /** invited → active, as accepting the invitation does (`academy admin users activate`). */
    activate: transition('activate'),
    suspend: transition('suspend'),
    reactivate: transition('reactivate'),
    /** From every state but archived; final. */
    archive: transition('archive'),

    /**
     * The user an invitation link is for, without using it up (the page a link opens: mail scanners
     * open links too). The same 404 as `acceptInvitation` for every link that would not work.
     */
    async invitation(ctx: ServiceContext, token: string): Promise<User> {
      if (!INVITATION_TOKEN.test(token)) throw new NotFoundError();
      const invitation = await deps.invitations.findByHash(deps.db, hashInvitationToken(token));
      if (!invitation || invitation.used_at !== null || Date.parse(invitation.expires_at) <= ctx.clock.now().getTime()) {
        throw new NotFoundError();
      }
      const user = await find(invitation.user_id);
      if (user.status !== 'invited') throw new NotFoundError();
      return presentUser(user);
    },

    /**
     * Accepts an invitation by the token of its link: invited → active, once. A malformed, unknown,
     * used, replaced or expired token, and an invitation of a user who is no longer `invited`, are the
     * same 404, so the answer tells nothing about which tokens exist. `alongside` runs in the
     * acceptance's transaction once the user is active (it sets the password and starts the session).
     */
    async acceptInvitation(ctx: ServiceContext, token: string, alongside?: (trx: Kysely<DB>, user: User) => Promise<void>): Promise<User> {
      if (!INVITATION_TOKEN.test(token)) throw new NotFoundError();
      const hash = hashInvitationToken(token);
      return presentUser(
        await deps.db.transaction().execute(async (trx) => {
          const invitation = await deps.invitations.findByHash(trx, hash);
          const now = ctx.clock.now();
          if (!invitation || invitation.used_at !== null || Date.parse(invitation.expires_at) <= now.getTime()) throw new NotFoundError();
          const user = await find(invitation.user_id, trx);
          if (user.status !== 'invited' || !(await deps.invitations.use(trx, invitation.id, now.toISOString()))) {
            throw new NotFoundError();
          }
          // The invitee acts: whoever opened the link is the user it was sent to.
          const invitee = { kind: 'user' as const, tokenId: null, userId: user.id, scopes: [], permissions: null, name: user.name };
          const active = await move({ ...ctx, actor: invitee }, user.id, 'activate', trx);
          // What the acceptance page does with it in the same transaction: the password, the session.
          await alongside?.(trx, presentUser(active));
          return active;
        }),
      );
    },

    /**
     * Replaces a staff user's permissions (`academy admin users grant`). Only the administration may:
     * an API token is refused whatever its scopes.
     */
    async grant(ctx: ServiceContext, id: number, input: UserGrant): Promise<User> {
      if (!mayGrant(ctx)) throw new PermissionDeniedError('Roles and permissions are granted by the administration only.');
      const now = ctx.clock.now().toISOString();
      return presentUser(
        await deps.db.transaction().execute(async (trx) => {
          const granted = {
            ...(input.roles !== undefined ? { roles: JSON.stringify(nameSet(input.roles)) } : {}),
            ...(input.permissions !== undefined ? { permissions: JSON.stringify(nameSet(input.permissions)) } : {}),
          };
          const before = await staff.find(id, trx);
          if (!before || !(await staff.update(trx, id, { ...granted, updated_at: now }))) throw new NotFoundError();
          const after = await find(id, trx);
          await audit.record(trx, ctx, {
            action: 'user.granted',
            subject: { type: 'user', id },
            changes: audit.changes(presentUser(before), presentUser(after)),
          });
          ctx.logger.info({ userId: id, roles: input.roles, permissions: input.permissions }, 'roles and permissions granted');
          return after;
        }),
      );
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
