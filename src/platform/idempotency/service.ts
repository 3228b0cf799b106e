import type { DatabaseConnection } from 'kysely';
import type { Clock } from '../clock.ts';
import { ConflictError, IdempotencyKeyReusedError, ValidationError } from '../errors.ts';
import type { IdempotencyKeyRow, IdempotencyRepository, StoredResponse } from './repository.ts';

export type { StoredResponse } from './repository.ts';

/** How long a key and its stored response are kept (per token). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * A reservation still `in_progress` after this long belongs to a process that died mid-request (a
 * finished request always completes or releases its key), so a retry may take the key over.
 */
export const IN_PROGRESS_LEASE_MS = 5 * 60 * 1000;

export const MAX_KEY_LENGTH = 255;

function inUse(): ConflictError {
  return new ConflictError(
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still being processed. Retry after it has finished.',
  );
}

function answerLost(): ConflictError {
  return new ConflictError(
    'idempotency_key_answer_lost',
    'The request with this Idempotency-Key was carried out, but its response was lost (the server failed after saving its changes). Look the outcome up instead of sending the request again; a new key would run it again.',
  );
}

/** A replay carries the first request's upload digest, when it was an upload, for the caller to compare. */
export type Begin = { kind: 'proceed'; id: number } | { kind: 'replay'; response: StoredResponse; bodyDigest?: string };

export function createIdempotencyService(deps: { keys: IdempotencyRepository; clock: Clock; leaseMs?: number }) {
  const { keys, clock } = deps;
  const leaseMs = deps.leaseMs ?? IN_PROGRESS_LEASE_MS;

  function replay(row: IdempotencyKeyRow): Begin {
    return {
      kind: 'replay',
      ...(row.body_digest ? { bodyDigest: row.body_digest } : {}),
      response: {
        status: row.response_status ?? 200,
        headers: row.response_headers ? (JSON.parse(row.response_headers) as Record<string, string>) : {},
        body: row.response_body ?? '',
      },
    };
  }

  return {
    /** Checks a client's key: 1 to 255 characters. */
    checkKey(key: string): string {
      if (key.length === 0) throw ValidationError.field('Idempotency-Key', 'The Idempotency-Key header must not be empty.');
      if (key.length > MAX_KEY_LENGTH) {
        throw ValidationError.field('Idempotency-Key', `The Idempotency-Key header may be at most ${MAX_KEY_LENGTH} characters.`);
      }
      return key;
    },

    /**
     * Reserves `key` for this request, or says to replay the stored response of an earlier one with
     * the same key and request. Throws 422 for a key used with another request, 409 while the earlier
     * request is still running.
     */
    async begin(input: { tokenId: number; key: string; requestHash: string }): Promise<Begin> {
      // Few rounds suffice: each one either settles or removes a row that another request raced for.
      for (let round = 0; round < 3; round += 1) {
        const now = clock.now();
        const row = await keys.find(input.tokenId, input.key);
        if (row) {
          if (Date.parse(row.expires_at) <= now.getTime()) {
            await keys.remove(row);
            continue;
          }
          if (row.request_hash !== input.requestHash) throw new IdempotencyKeyReusedError();
          if (row.state === 'completed') return replay(row);
          if (row.state === 'unanswered') throw answerLost();
          if (Date.parse(row.created_at) + leaseMs > now.getTime()) {
            throw inUse();
          }
          // The holder stopped (its lease is over). If it committed changes, running the request
          // again would make them twice; if not, nothing of it was kept and the retry runs it.
          if (row.committed_at !== null) {
            await keys.markUnanswered(row.id);
            throw answerLost();
          }
          await keys.remove(row);
          continue;
        }
        const id = await keys.reserve({
          token_id: input.tokenId,
          key: input.key,
          request_hash: input.requestHash,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
        });
        if (id !== undefined) return { kind: 'proceed', id };
      }
      throw inUse();
    },

    /** Stores the outcome so that repeats replay it (an upload's with the digest of its content). */
    async complete(id: number, response: StoredResponse, bodyDigest?: string): Promise<void> {
      await keys.complete(id, response, bodyDigest);
    },

    /**
     * After a failure (a 5xx): frees the key for a retry if the request committed nothing; otherwise
     * repeats are a 409 `idempotency_key_answer_lost`.
     */
    async release(id: number): Promise<void> {
      await keys.release(id);
    },

    /** Notes, in a transaction about to commit, that the key's request changed something (src/db/commit-hooks.ts). */
    async markCommitted(connection: DatabaseConnection, id: number): Promise<void> {
      await keys.markCommitted(connection, id, clock.now().toISOString());
    },

    /** Deletes keys past their 24 hours; returns how many. */
    async prune(now: Date = clock.now()): Promise<number> {
      return keys.deleteExpired(now.toISOString());
    },
  };
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
