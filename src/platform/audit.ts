import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Actor, ServiceContext } from './context.ts';
import { currentRequestId } from './trace.ts';

/** Who acted, as the audit trail names it (CONTRACT, "Audit trail"). */
export const AUDIT_ACTOR_TYPES = ['user', 'token', 'operator', 'system'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

export const AUDIT_VIAS = ['api', 'console', 'cli', 'job'] as const;

/** What changed, field by field: `{"name": ["Old", "New"]}`; a created record's fields have `null` before. */
export type AuditChanges = Record<string, [unknown, unknown]>;

/** One change, as a service records it. */
export interface AuditEntry {
  /** `<resource>.<verb>`, the verb in the past tense: `course.transitioned`, `enrolment.cancelled`. */
  action: `${string}.${string}`;
  /** The record changed: its type (`course`, `enrolment`) and id (null for one without: an import's batch). */
  subject: { type: string; id: number | null };
  changes?: AuditChanges | null | undefined;
}

/** What recording needs of a service call's context. */
export type AuditContext = Pick<ServiceContext, 'actor' | 'clock' | 'requestId' | 'via' | 'ip'>;

/** Fields never shown in `changes`, whatever their value: credentials and what they are checked with. */
const SECRET_FIELDS = new Set(['password_hash', 'secret', 'auth_header', 'token_hash', 'id_hash']);
const SECRET_NAME = /secret|password|token|auth|_hash$/i;

export function isSecretField(name: string): boolean {
  return SECRET_FIELDS.has(name) || SECRET_NAME.test(name);
}

/** `value` without its secret fields, at any depth, as JSON would carry it. */
function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !isSecretField(key))
        .map(([key, field]) => [key, withoutSecrets(field)]),
    );
  }
  return value === undefined ? null : value;
}

const same = (a: unknown, b: unknown) => JSON.stringify(withoutSecrets(a)) === JSON.stringify(withoutSecrets(b));

/**
 * The fields that differ between `before` and `after` (either null for a record created or
 * removed), as `{"field": [before, after]}`. Secret fields are left out whatever they hold, and so is
 * `updated_at` (the event's own `occurred_at` says when). Nested values are compared whole.
 */
export function changes(before: object | null | undefined, after: object | null | undefined): AuditChanges {
  const was = (before ?? {}) as Record<string, unknown>;
  const is = (after ?? {}) as Record<string, unknown>;
  const out: AuditChanges = {};
  for (const field of new Set([...Object.keys(was), ...Object.keys(is)])) {
    if (field === 'updated_at' || isSecretField(field)) continue;
    const from = Object.hasOwn(was, field) ? was[field] : null;
    const to = Object.hasOwn(is, field) ? is[field] : null;
    if (before && after && !Object.hasOwn(is, field)) continue;
    if (!same(from, to)) out[field] = [withoutSecrets(from), withoutSecrets(to)];
  }
  return out;
}

/**
 * The actor as the trail records it. A token is a `token` even when it acts for a user (the token
 * made the call; its name says for whom: `ci-sync (for Ada Lovelace)`); a staff user acting in the
 * console or with `academy admin --as` is a `user`.
 */
async function actorOf(trx: Kysely<DB>, actor: Actor): Promise<{ type: AuditActorType; id: number | null; name: string | null }> {
  switch (actor.kind) {
    case 'operator':
    case 'system':
      return { type: actor.kind, id: null, name: actor.name ?? actor.kind };
    case 'user': {
      const id = actor.userId;
      const name =
        actor.name ??
        (id === null ? null : ((await trx.selectFrom('users').select('name').where('id', '=', id).executeTakeFirst())?.name ?? null));
      return { type: 'user', id, name };
    }
    case 'token': {
      const id = actor.tokenId;
      const name =
        actor.name ??
        (id === null ? null : ((await trx.selectFrom('api_tokens').select('name').where('id', '=', id).executeTakeFirst())?.name ?? null));
      return { type: 'token', id, name };
    }
  }
}

/**
 * Writes one audit event in the caller's transaction `trx`, so that it exists exactly when the change
 * was committed: who acted (`ctx.actor`), through what (`ctx.via`), for which request and address,
 * and what changed. Secret fields are dropped from `changes` here too, whoever built them.
 */
export async function recordAudit(trx: Kysely<DB>, ctx: AuditContext, entry: AuditEntry): Promise<void> {
  const actor = await actorOf(trx, ctx.actor);
  const shown = entry.changes ? (withoutSecrets(entry.changes) as AuditChanges) : null;
  await trx
    .insertInto('audit_events')
    .values({
      occurred_at: ctx.clock.now().toISOString(),
      actor_type: actor.type,
      actor_id: actor.id,
      actor_name: actor.name,
      action: entry.action,
      subject_type: entry.subject.type,
      subject_id: entry.subject.id,
      via: ctx.via,
      // A job's context has none of its own: the request it descends from (src/platform/trace.ts).
      request_id: ctx.requestId ?? currentRequestId(),
      ip: ctx.ip,
      changes: shown && Object.keys(shown).length > 0 ? JSON.stringify(shown) : null,
    })
    .execute();
}

/** The audit trail's recorder: `audit.record(trx, ctx, { action, subject, changes })`, `audit.changes(before, after)`. */
export const audit = { record: recordAudit, changes };
