import { hash, randomBytes } from 'node:crypto';
import { closest, distance } from 'fastest-levenshtein';
import { json } from '../../db/codec.ts';
import { type AuditContext, audit } from '../audit.ts';
import type { ChangeFeed } from '../changes.ts';
import { createReadCache } from '../changes.ts';
import type { Clock } from '../clock.ts';
import { operator } from '../context.ts';
import { normaliseEmail } from '../email.ts';
import { NotFoundError, ValidationError } from '../errors.ts';
import { effectivePermissions, type Permission } from '../permissions.ts';
import type { NewToken, TokenRepository, TokenRow } from './repository.ts';
import { isGrantable, SCOPES } from './scopes.ts';

const PREFIX = 'acd_';

/** The longest lifetime a token may be given: the same bound as ACADEMY_TOKEN_TTL_DAYS. */
const MAX_TOKEN_DAYS = 36_500;
const MAX_NAME_LENGTH = 100;

export interface TokenView {
  id: number;
  name: string;
  prefix: string;
  scopes: string[];
  user_id: number | null;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

export interface IssuedToken {
  token: string;
  record: TokenView;
}

export interface AuthenticatedToken {
  id: number;
  name: string;
  /** The name of the user it acts for; null without one. */
  userName: string | null;
  scopes: readonly string[];
  userId: number | null;
  /** What the user it acts for may change (their roles and direct grants); null for a token that acts for nobody. */
  permissions: readonly Permission[] | null;
}

export interface CreateTokenInput {
  name: string;
  scopes: string[];
  userEmail?: string | undefined;
  /** Days until expiry; `null` for a token that never expires; omitted for the configured default. */
  expiresInDays?: number | null | undefined;
}

export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

function generate(): string {
  // 32 random bytes = 256 bits, URL-safe.
  return PREFIX + randomBytes(32).toString('base64url');
}

function view(row: TokenRow): TokenView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.token_prefix,
    scopes: JSON.parse(row.scopes) as string[],
    user_id: row.user_id,
    expires_at: row.expires_at,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
    created_at: row.created_at,
  };
}

function checkName(raw: string): string {
  const name = raw.trim();
  if (!name) throw ValidationError.field('name', 'A name is required.');
  if ([...name].length > MAX_NAME_LENGTH) {
    throw ValidationError.field('name', `The name must be at most ${MAX_NAME_LENGTH} characters.`);
  }
  // A line break or escape sequence in a name would garble `tokens list` and the logs that show it.
  if (/\p{Cc}/u.test(name)) throw ValidationError.field('name', 'The name must not contain control characters (line breaks, tabs).');
  return name;
}

function checkScopes(scopes: string[]): string[] {
  const cleaned = [...new Set(scopes.map((s) => s.trim()).filter(Boolean))];
  if (cleaned.length === 0) throw ValidationError.field('scopes', 'At least one scope is required.');
  const unknown = cleaned.filter((s) => !isGrantable(s));
  if (unknown.length > 0) {
    // A likely typo is named: `student:read` → students:read, `documents:wirte` → documents:write.
    const guesses = unknown
      .map((scope) => ({ scope, guess: closest(scope, [...SCOPES]) }))
      .filter(({ scope, guess }) => distance(scope, guess) <= 3);
    const hint = guesses.length ? ` Did you mean ${guesses.map(({ scope, guess }) => `${guess} (for ${scope})`).join(', ')}?` : '';
    throw ValidationError.field('scopes', `Unknown scope(s): ${unknown.join(', ')}.${hint} Known scopes: *, ${SCOPES.join(', ')}.`);
  }
  return cleaned;
}

export function createTokenService(deps: { tokens: TokenRepository; clock: Clock; defaultTtlDays: number; changes: ChangeFeed }) {
  const { tokens, clock } = deps;
  /** Who changes tokens unless the caller says: the operator, on the command line (`academy tokens`). */
  const byOperator: AuditContext = { actor: operator, clock, requestId: null, via: 'cli', ip: null };
  // Known tokens by the token presented, so that a request with a cached token is not hashed: the
  // digest is taken only to look a token up in the database. Emptied whenever a token changes in any
  // process (see ChangeFeed), and no entry outlives CACHE_MAX_AGE_MS; only tokens found are kept.
  const cache = createReadCache<string, { token: AuthenticatedToken; revoked: boolean; expiresAt: number | null }>(deps.changes);
  // last_used_at is recorded in memory and written in batches, so a request never waits on a write.
  const usage = new Map<number, number>();

  function expiry(days: number | null | undefined): string | null {
    if (days === null) return null;
    const effective = days ?? deps.defaultTtlDays;
    if (!Number.isInteger(effective) || effective < 1 || effective > MAX_TOKEN_DAYS) {
      throw ValidationError.field('expires_in_days', `The expiry must be a whole number of days from 1 to ${MAX_TOKEN_DAYS}.`);
    }
    return new Date(clock.now().getTime() + effective * 86_400_000).toISOString();
  }

  function mint(input: { name: string; scopes: string[]; userId: number | null; expiresAt: string | null }) {
    const token = generate();
    const row: NewToken = {
      name: input.name,
      token_hash: hashToken(token),
      token_prefix: token.slice(0, PREFIX.length + 8),
      scopes: JSON.stringify(input.scopes),
      user_id: input.userId,
      expires_at: input.expiresAt,
      created_at: clock.now().toISOString(),
    };
    return { token, row };
  }

  async function issue(ctx: AuditContext, input: { name: string; scopes: string[]; userId: number | null; expiresAt: string | null }) {
    const { token, row } = mint(input);
    const record = view(
      await tokens.insert(row, (trx, created) =>
        audit.record(trx, ctx, {
          action: 'token.created',
          subject: { type: 'token', id: created.id },
          changes: audit.changes(null, view(created)),
        }),
      ),
    );
    return { token, record };
  }

  async function existing(id: number): Promise<TokenRow> {
    const row = await tokens.findById(id);
    if (!row) throw new NotFoundError();
    return row;
  }

  function check(known: { token: AuthenticatedToken; revoked: boolean; expiresAt: number | null } | undefined): AuthenticatedToken | null {
    const now = clock.epochMs();
    if (!known || known.revoked || (known.expiresAt !== null && known.expiresAt <= now)) return null;
    usage.set(known.token.id, now);
    return known.token;
  }

  return {
    /** `ctx`: who creates it, for the audit trail (the operator unless said). */
    async create(input: CreateTokenInput, ctx: AuditContext = byOperator): Promise<IssuedToken> {
      const name = checkName(input.name);
      const scopes = checkScopes(input.scopes);
      let userId: number | null = null;
      if (input.userEmail) {
        userId = (await tokens.findUserIdByEmail(normaliseEmail(input.userEmail))) ?? null;
        if (userId === null) throw ValidationError.field('user', `No user with email ${input.userEmail}.`);
      }
      return issue(ctx, { name, scopes, userId, expiresAt: expiry(input.expiresInDays) });
    },

    async list(): Promise<TokenView[]> {
      return (await tokens.list()).map(view);
    },

    async revoke(id: number, ctx: AuditContext = byOperator): Promise<TokenView> {
      const before = view(await existing(id));
      await tokens.revoke(id, clock.now().toISOString(), (trx, row) =>
        audit.record(trx, ctx, { action: 'token.revoked', subject: { type: 'token', id }, changes: audit.changes(before, view(row)) }),
      );
      return view(await existing(id));
    },

    /** Issues a replacement with the same name, scopes, user and remaining lifetime; the old token stops working at once. */
    async rotate(id: number, ctx: AuditContext = byOperator): Promise<IssuedToken> {
      const old = await existing(id);
      if (old.revoked_at) throw ValidationError.field('id', 'A revoked token cannot be rotated.');
      const { token, row } = mint({
        name: old.name,
        scopes: JSON.parse(old.scopes) as string[],
        userId: old.user_id,
        expiresAt: old.expires_at,
      });
      // One change: the old token retired for the new one, recorded on the old token.
      const replacement = await tokens.rotate(id, row, (trx, created) =>
        audit.record(trx, ctx, {
          action: 'token.rotated',
          subject: { type: 'token', id },
          changes: { revoked_at: [null, created.created_at], rotated_to_id: [null, created.id] },
        }),
      );
      if (!replacement) throw ValidationError.field('id', 'The token was revoked or rotated meanwhile.');
      return { token, record: view(replacement) };
    },

    async setScopes(id: number, scopes: string[], ctx: AuditContext = byOperator): Promise<TokenView> {
      const token = await existing(id);
      // Scopes do not bring a token back: a revoked or rotated-away one stays refused.
      if (token.revoked_at) throw ValidationError.field('id', 'A revoked token cannot be given scopes.');
      await tokens.setScopes(id, JSON.stringify(checkScopes(scopes)), (trx, row) =>
        audit.record(trx, ctx, { action: 'token.updated', subject: { type: 'token', id }, changes: audit.changes(view(token), view(row)) }),
      );
      return view(await existing(id));
    },

    /**
     * Resolves a presented token; `null` for unknown, malformed, expired or revoked ones, and for one
     * acting for a suspended or archived user. Answers
     * synchronously when the token is cached (the common case), with a promise otherwise.
     */
    /**
     * What `authenticate` answers without looking the token up: the token or null when this process
     * knows the answer, undefined when only a look-up can tell.
     */
    known(presented: string): AuthenticatedToken | null | undefined {
      if (!presented.startsWith(PREFIX) || presented.length > 200) return null;
      const known = cache.peek(presented);
      return known === undefined ? undefined : check(known);
    },

    authenticate(presented: string): AuthenticatedToken | null | Promise<AuthenticatedToken | null> {
      if (!presented.startsWith(PREFIX) || presented.length > 200) return null;
      const known = cache.get(presented, async () => {
        const row = await tokens.findByHash(hashToken(presented));
        return (
          row && {
            token: {
              id: row.id,
              name: row.name,
              userName: row.user_name,
              scopes: JSON.parse(row.scopes) as string[],
              userId: row.user_id,
              permissions:
                row.user_id === null
                  ? null
                  : effectivePermissions(json<string[]>(row.user_roles) ?? [], json<string[]>(row.user_permissions) ?? []),
            },
            // A token acting for a suspended or archived user acts for nobody any more.
            revoked: row.revoked_at !== null || row.user_status === 'suspended' || row.user_status === 'archived',
            expiresAt: row.expires_at === null ? null : Date.parse(row.expires_at),
          }
        );
      });
      return known instanceof Promise ? known.then(check) : check(known);
    },

    async flushUsage(): Promise<void> {
      if (usage.size === 0) return;
      const batch = new Map([...usage].map(([id, at]) => [id, new Date(at).toISOString()]));
      usage.clear();
      await tokens.touch(batch);
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
