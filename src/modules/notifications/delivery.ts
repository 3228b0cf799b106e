import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import { isDatabaseUnavailable } from '../../db/errors.ts';
import type { DB } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import { type JobContext, type JobDefinitions, PermanentJobError } from '../../platform/jobs/registry.ts';
import type { Mailer } from '../../platform/mail.ts';
import type { Platform } from '../../platform/platform.ts';
import { createStaffAuthRepository, type StaffAuthRepository } from '../staff-auth/repository.ts';
import { newSecret } from '../staff-auth/secrets.ts';
import { RESET_TTL_MS } from '../staff-auth/service.ts';
import { invitationLink, newInvitationToken } from '../users/invitations.ts';
import { createInvitationRepository, type InvitationRepository } from '../users/repository.ts';
import { createNotificationRepository, type NotificationRepository, type NotificationRow } from './repository.ts';
import { type MailContext, renderMail } from './templates.ts';

/** 30 s, 2 min, 8 min, 32 min, about 2 h (×4 each time), with ±20 % jitter. */
export function retryDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(30_000 * 4 ** (Math.max(attempt, 1) - 1), 3 * 3_600_000);
  return Math.round(base * (0.8 + random() * 0.4));
}

/** How often recording a sent mail is tried again while the database is unavailable (0.2 + 0.4 + … + 3.2 s). */
const RECORD_RETRIES = 5;

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 2000);
}

/** An SMTP 5xx answer (e.g. 550 no such mailbox) will not change on a retry. */
function permanent(error: unknown): boolean {
  if (error instanceof PermanentJobError) return true;
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

export interface NotificationDeliveryDeps {
  notifications: NotificationRepository;
  invitations: InvitationRepository;
  resets: Pick<StaffAuthRepository, 'insertReset'>;
  mail: Mailer;
  clock: Clock;
  config: Pick<Config, 'inviteUrl' | 'inviteTtlHours' | 'resetUrl'>;
}

/**
 * One attempt to send a notification (job `notifications.send`) through the mail port. It stays
 * `queued` while attempts remain and becomes `sent`, or `failed` in the transaction in which the
 * queue gives its job up. An invitation gets a new acceptance token on every attempt: the token
 * exists only in the email, so the link of an email that never arrived is useless to anyone.
 */
export function createNotificationDelivery(deps: NotificationDeliveryDeps) {
  const { notifications, clock } = deps;

  async function send(payload: { notificationId: number }, ctx: Pick<JobContext, 'attempt'>): Promise<void> {
    const notification = await notifications.find(payload.notificationId);
    if (notification?.status !== 'queued') return;
    const started = clock.now();
    if (!(await notifications.startAttempt(notification.id, ctx.attempt, started.toISOString()))) return;

    let messageId: string;
    try {
      messageId = await attempt(notification, started);
    } catch (error) {
      const reason = describe(error);
      await notifications.recordFailure(notification.id, reason, clock.now().toISOString());
      if (permanent(error)) throw new PermanentJobError(reason);
      throw error;
    }
    await recordSent(notification.id, messageId);
  }

  /**
   * The mail server has accepted the message: recording that must not fail into a retry of the job,
   * which would send the mail again. A database that is briefly unavailable (a connection cut) is
   * waited for, a few times over about 6 s; only then does the job fail and, on its next run, resend.
   */
  async function recordSent(id: number, messageId: string): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await notifications.markSent(id, messageId, clock.now().toISOString());
        return;
      } catch (error) {
        if (attempt >= RECORD_RETRIES || !isDatabaseUnavailable(error)) throw error;
        await sleep(200 * 2 ** attempt);
      }
    }
  }

  /** Writes the email (with a new acceptance link for an invitation) and hands it to the mail port. */
  async function attempt(notification: NotificationRow, started: Date): Promise<string> {
    const sender = await notifications.sender();
    const name = notification.user_id === null ? undefined : await notifications.userName(notification.user_id);
    const context: MailContext = {
      organization: { name: sender.name, contactEmail: sender.contact_email, timezone: sender.timezone },
      locale: notification.locale,
      user: { name: name ?? notification.recipient },
    };
    if (notification.type === 'invitation') {
      if (notification.user_id === null) throw new PermanentJobError('the invited user no longer exists');
      const { token, hash } = newInvitationToken();
      const expiresAt = new Date(started.getTime() + deps.config.inviteTtlHours * 3_600_000);
      const issued = await deps.invitations.issue({
        userId: notification.user_id,
        notificationId: notification.id,
        recipient: notification.recipient,
        hash,
        expiresAt: expiresAt.toISOString(),
        now: started.toISOString(),
      });
      // The address was corrected while the invitation waited: its link must not go to the old one.
      if (!issued) throw new PermanentJobError('the user’s email changed before the invitation was sent');
      context.link = { url: invitationLink(deps.config.inviteUrl, token), expiresAt };
    }
    if (notification.type === 'password_reset') {
      if (notification.user_id === null) throw new PermanentJobError('the user no longer exists');
      // Like an invitation's, the link is made for this attempt and exists only in the email.
      const { secret, hash } = newSecret();
      const expiresAt = new Date(started.getTime() + RESET_TTL_MS);
      await deps.resets.insertReset({
        userId: notification.user_id,
        notificationId: notification.id,
        tokenHash: hash,
        now: started.toISOString(),
        expiresAt: expiresAt.toISOString(),
      });
      context.link = { url: invitationLink(deps.config.resetUrl, secret), expiresAt };
    }
    const mail = renderMail(notification.type, context);
    const sent = await deps.mail.send({ to: notification.recipient, subject: notification.subject, text: mail.text, html: mail.html });
    return sent.messageId;
  }

  return {
    send,
    async exhausted(trx: Kysely<DB>, payload: { notificationId: number }, error: string): Promise<void> {
      await notifications.markFailed(trx, payload.notificationId, error, clock.now().toISOString());
    },
  };
}

export function notificationJobs(platform: Platform) {
  const db = platform.database.db;
  const delivery = createNotificationDelivery({
    notifications: createNotificationRepository(db),
    invitations: createInvitationRepository(db, platform.database.dialect),
    resets: createStaffAuthRepository(db),
    mail: platform.mail,
    clock: platform.clock,
    config: platform.config,
  });
  return {
    'notifications.send': {
      handler: (payload, ctx) => delivery.send(payload, ctx),
      backoff: (attempt) => retryDelay(attempt),
      onExhausted: (trx, payload, error) => delivery.exhausted(trx, payload, error),
    },
  } satisfies JobDefinitions;
}
