import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { type AuditContext, recordAudit } from '../../platform/audit.ts';
import type { Clock } from '../../platform/clock.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { normaliseEmail } from '../../platform/email.ts';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../platform/errors.ts';
import { requirePermission } from '../../platform/permissions.ts';
import type { NotificationService } from '../notifications/service.ts';
import { hashPassword, needsRehash, verifyPassword } from './passwords.ts';
import type { Credentials, SessionRow, SessionWithUser, StaffAuthRepository } from './repository.ts';
import { hashSecret, newSecret } from './secrets.ts';
import { checkPassword } from './strength.ts';

/** A session ends this long after its sign-in, however active (CONTRACT). */
export const SESSION_ABSOLUTE_MS = 7 * 24 * 3_600_000;
/** A session's last use is written at most this often (its idle expiry counts from it). */
const TOUCH_EVERY_MS = 60_000;
/** Failed sign-ins per email within this window make further attempts for it wait. */
export const FAILURE_WINDOW_MS = 15 * 60_000;
export const FAILURE_LIMIT = 5;
/** How long a password-reset link works after its email was sent. */
export const RESET_TTL_MS = 30 * 60_000;

/** What a request says about itself, kept with the session it starts. */
export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
}

/** A console request's context (`via: console`, its request id and address), which events are recorded with. */
export type Seen = Omit<AuditContext, 'actor'>;

/** The context of `user` acting on the console, or of someone who gave `name` (an email) and is no user. */
export function acting(seen: Seen, who: { id: number | null; name: string }): AuditContext {
  return { ...seen, actor: { kind: 'user', tokenId: null, userId: who.id, scopes: [], permissions: [], name: who.name } };
}

/** A session just started: the cookie's value (shown once, never stored) and the row. */
export interface StartedSession {
  id: string;
  session: SessionRow;
  user: Credentials;
}

export type SignInOutcome =
  | { kind: 'signed_in'; started: StartedSession }
  | { kind: 'failed' }
  | { kind: 'wait'; retryAfterSeconds: number };

export interface StaffAuthServiceDeps {
  db: Kysely<DB>;
  auth: StaffAuthRepository;
  notifications: NotificationService;
  clock: Clock;
  idleMinutes: number;
  /** The reset page's address (`ACADEMY_RESET_URL` or the console's): a link's token goes in its query. */
  resetUrl: string;
}

/**
 * Staff sign-in (CONTRACT, "Staff sign-in and the console"): passwords, server-side sessions (only a
 * hash of the id is stored), the per-email wait after failures, and password resets by email.
 */
export function createStaffAuthService(deps: StaffAuthServiceDeps) {
  const { auth, clock } = deps;
  const idleMs = deps.idleMinutes * 60_000;

  /** Whether a session may still be used at `now` (not ended, neither idle nor past its end, its user active). */
  function live(found: SessionWithUser, now: number): boolean {
    const { session, user } = found;
    return (
      session.ended_at === null &&
      now < Date.parse(session.expires_at) &&
      now - Date.parse(session.last_seen_at) < idleMs &&
      user.status === 'active'
    );
  }

  /** The email as stored, or null when it cannot be anyone's (it then fails like an unknown one). */
  function emailOf(given: string): string | null {
    try {
      return normaliseEmail(given);
    } catch {
      return null;
    }
  }

  /** Seconds until `email` may try again, or 0 when it may now. */
  async function waitFor(email: string, now: number): Promise<number> {
    const failures = await auth.failuresSince(email, new Date(now - FAILURE_WINDOW_MS).toISOString(), FAILURE_LIMIT);
    if (failures.length < FAILURE_LIMIT) return 0;
    const oldest = Date.parse(failures[0] as string);
    return Math.max(1, Math.ceil((oldest + FAILURE_WINDOW_MS - now) / 1000));
  }

  async function start(executor: Kysely<DB>, user: Credentials, method: string, meta: RequestMeta): Promise<StartedSession> {
    const now = clock.now();
    const { secret: id, hash } = newSecret();
    const session = await auth.insertSession(executor, {
      userId: user.id,
      idHash: hash,
      method,
      now: now.toISOString(),
      expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS).toISOString(),
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 300) ?? null,
    });
    return { id, session, user };
  }

  /** The strength rules for `user`'s new password, as a 422 on `field` when it fails them. */
  async function checkNew(
    user: Pick<Credentials, 'email' | 'name'>,
    password: string,
    confirmation: string | undefined,
    field = 'password',
  ) {
    const problem = await checkPassword(password, { email: user.email, name: user.name });
    if (problem) throw ValidationError.field(field, problem);
    if (confirmation !== undefined && confirmation !== password) {
      throw ValidationError.field('password_confirmation', 'The two passwords are not the same.');
    }
  }

  return {
    /**
     * Signs in with an email and a password. Every failure is the same outcome, reached with the same
     * work (one password hash computed) whether the email is known or not; after FAILURE_LIMIT failures
     * for one email within FAILURE_WINDOW_MS, attempts for it wait, right or wrong.
     */
    async signIn(email: string, password: string, meta: RequestMeta, seen: Seen): Promise<SignInOutcome> {
      const now = clock.epochMs();
      const normalised = emailOf(email) ?? email.trim().toLowerCase().slice(0, 320);
      const wait = await waitFor(normalised, now);
      if (wait > 0) return { kind: 'wait', retryAfterSeconds: wait };
      const user = emailOf(email) === null ? undefined : await auth.findStaffByEmail(normalised);
      const matches = await verifyPassword(password, user?.passwordHash ?? null);
      if (!user || !matches || user.status !== 'active') {
        await deps.db.transaction().execute(async (trx) => {
          await auth.recordFailure(trx, normalised, new Date(now).toISOString());
          // Failures past the window no longer count: forgotten here, so the table holds at most 15
          // minutes of them however many emails are tried, and no task is needed.
          await auth.purgeFailures(trx, new Date(now - FAILURE_WINDOW_MS).toISOString());
          await recordAudit(trx, acting(seen, { id: user?.id ?? null, name: normalised }), {
            action: 'session.sign_in_failed',
            subject: { type: 'user', id: user?.id ?? null },
          });
        });
        return { kind: 'failed' };
      }
      await auth.clearFailures(normalised);
      // A hash made with older, cheaper parameters is made again now that the password is at hand.
      if (user.passwordHash && needsRehash(user.passwordHash)) {
        await auth.rehash(user.id, await hashPassword(password));
      }
      const started = await deps.db.transaction().execute(async (trx) => {
        const made = await start(trx, user, 'password', meta);
        await recordAudit(trx, acting(seen, user), {
          action: 'session.signed_in',
          subject: { type: 'user', id: user.id },
          changes: { method: [null, 'password'] },
        });
        return made;
      });
      return { kind: 'signed_in', started };
    },

    /** Starts a session for `user` in `executor`'s transaction (an invitation accepted, a password reset). */
    start,

    /** The live session of a cookie's value, with its user; null for none, ended, expired or idle. */
    async current(cookie: string | undefined): Promise<SessionWithUser | null> {
      if (!cookie || cookie.length > 100) return null;
      const found = await auth.findSession(hashSecret(cookie));
      const now = clock.epochMs();
      if (!found || !live(found, now)) return null;
      if (now - Date.parse(found.session.last_seen_at) >= TOUCH_EVERY_MS) {
        const seen = new Date(now).toISOString();
        await auth.touchSession(found.session.id, seen);
        found.session.last_seen_at = seen;
      }
      return found;
    },

    async signOut(current: SessionWithUser, seen: Seen): Promise<void> {
      await deps.db.transaction().execute(async (trx) => {
        await auth.endSession(trx, current.user.id, current.session.id, 'signed_out', clock.now().toISOString());
        await recordAudit(trx, acting(seen, current.user), {
          action: 'session.signed_out',
          subject: { type: 'user', id: current.user.id },
        });
      });
    },

    /** The user's open sessions, newest first. */
    async sessions(userId: number): Promise<SessionRow[]> {
      const now = clock.epochMs();
      const idle = (row: SessionRow) => now - Date.parse(row.last_seen_at) >= idleMs || now >= Date.parse(row.expires_at);
      return (await auth.openSessions(userId)).filter((row) => !idle(row));
    },

    /** Ends one of the user's own sessions (a 404 for one that is not theirs or is over). */
    async endOwn(current: SessionWithUser, sessionId: number, seen: Seen): Promise<void> {
      await deps.db.transaction().execute(async (trx) => {
        if (!(await auth.endSession(trx, current.user.id, sessionId, 'ended_by_user', clock.now().toISOString())))
          throw new NotFoundError();
        await recordAudit(trx, acting(seen, current.user), { action: 'session.ended', subject: { type: 'user', id: current.user.id } });
      });
    },

    /** Ends every session of the user but `keep` (sign-out everywhere else). */
    async endOthers(current: SessionWithUser, seen: Seen): Promise<number> {
      return deps.db.transaction().execute(async (trx) => {
        const ended = await auth.endSessions(trx, current.user.id, 'signed_out_elsewhere', clock.now().toISOString(), current.session.id);
        await recordAudit(trx, acting(seen, current.user), {
          action: 'session.ended',
          subject: { type: 'user', id: current.user.id },
          changes: { sessions_ended: [null, ended] },
        });
        return ended;
      });
    },

    /**
     * Ends every session of staff user `id` (`academy admin users sign-out ID`, the console's staff
     * page): the administration's, or a user's holding `users.manage`.
     */
    async signOutUser(ctx: ServiceContext, id: number): Promise<number> {
      requirePermission(ctx, 'users.manage');
      if (ctx.actor.kind === 'token') throw new PermissionDeniedError('Sessions are ended by the administration only.');
      const user = await auth.findStaff(id);
      if (!user) throw new NotFoundError();
      return deps.db.transaction().execute(async (trx) => {
        const ended = await auth.endSessions(trx, id, 'administration', ctx.clock.now().toISOString());
        await recordAudit(trx, ctx, { action: 'session.ended', subject: { type: 'user', id }, changes: { sessions_ended: [null, ended] } });
        return ended;
      });
    },

    /** Ends every session of a user in `executor`'s transaction (suspension, archival). */
    endAll(executor: Kysely<DB>, userId: number, reason: string): Promise<number> {
      return auth.endSessions(executor, userId, reason, clock.now().toISOString());
    },

    /** Checks a new password for a user (strength, confirmation): a 422 naming the field. */
    checkNew,

    /** Sets a user's password in `executor`'s transaction (an invitation accepted). */
    async setPassword(executor: Kysely<DB>, userId: number, password: string): Promise<void> {
      await auth.setPassword(executor, userId, await hashPassword(password), clock.now().toISOString());
    },

    /**
     * Changes the signed-in user's password: the current one must match. Every other session of the
     * user ends; this one goes on.
     */
    async changePassword(
      current: SessionWithUser,
      given: { current: string; password: string; confirmation: string },
      seen: Seen,
    ): Promise<void> {
      const { user, session } = current;
      if (!(await verifyPassword(given.current, user.passwordHash))) {
        throw ValidationError.field('current_password', 'The current password is not right.');
      }
      await checkNew(user, given.password, given.confirmation);
      const hash = await hashPassword(given.password);
      const now = clock.now().toISOString();
      await deps.db.transaction().execute(async (trx) => {
        await auth.setPassword(trx, user.id, hash, now);
        await auth.retireResets(trx, user.id, now);
        await auth.endSessions(trx, user.id, 'password_changed', now, session.id);
        await recordAudit(trx, acting(seen, user), { action: 'user.password_changed', subject: { type: 'user', id: user.id } });
      });
    },

    /**
     * Sends a one-time reset link to `email` if it is an active staff user's. The caller answers the
     * same whether or not it was.
     */
    async requestReset(ctx: ServiceContext, email: string): Promise<void> {
      const normalised = emailOf(email);
      const user = normalised === null ? undefined : await auth.findStaffByEmail(normalised);
      if (user?.status !== 'active') return;
      await deps.db
        .transaction()
        .execute((trx) => deps.notifications.notify(trx, ctx, 'password_reset', { id: user.id, email: user.email }));
    },

    /** The user a reset link is for, while it works; null otherwise. */
    async resetFor(token: string): Promise<Credentials | null> {
      if (!token || token.length > 100) return null;
      const reset = await auth.findUsableReset(hashSecret(token), clock.now().toISOString());
      const user = reset && (await auth.findStaff(reset.user_id));
      return user?.status === 'active' ? user : null;
    },

    /**
     * Sets a new password through a reset link, once: the link is used up, every session of the user
     * ends, and a new one starts. Null when the link does not work (used, expired, unknown).
     */
    async resetPassword(
      token: string,
      password: string,
      confirmation: string,
      meta: RequestMeta,
      seen: Seen,
    ): Promise<StartedSession | null> {
      const user = await this.resetFor(token);
      if (!user) return null;
      await checkNew(user, password, confirmation);
      const hash = await hashPassword(password);
      const reset = await auth.findUsableReset(hashSecret(token), clock.now().toISOString());
      if (!reset) return null;
      return deps.db.transaction().execute(async (trx) => {
        const now = clock.now().toISOString();
        if (!(await auth.useReset(trx, reset.id, now))) return null;
        await auth.setPassword(trx, user.id, hash, now);
        await auth.retireResets(trx, user.id, now);
        await auth.endSessions(trx, user.id, 'password_reset', now);
        await recordAudit(trx, acting(seen, user), { action: 'user.password_reset', subject: { type: 'user', id: user.id } });
        const started = await start(trx, user, 'reset', meta);
        await recordAudit(trx, acting(seen, user), {
          action: 'session.signed_in',
          subject: { type: 'user', id: user.id },
          changes: { method: [null, 'reset'] },
        });
        return started;
      });
    },

    /**
     * A one-time link that sets a password for active staff user `userId` and signs them in, valid
     * `ttlMs`, given directly rather than by email: the demo's administrator on the first start, or
     * the first administrator of an installation (`academy admin users create --activate-with-link`).
     */
    async signInLink(userId: number, ttlMs: number): Promise<string> {
      const { secret, hash } = newSecret();
      const now = clock.epochMs();
      await auth.insertReset({
        userId,
        notificationId: null,
        tokenHash: hash,
        now: new Date(now).toISOString(),
        expiresAt: new Date(now + ttlMs).toISOString(),
      });
      const link = new URL(deps.resetUrl);
      link.searchParams.set('token', secret);
      return link.toString();
    },
  };
}

export type StaffAuthService = ReturnType<typeof createStaffAuthService>;
