import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { parse as parseDotenv } from 'dotenv';
import ipaddr from 'ipaddr.js';
import type { DatabaseTimeouts } from './db/database.ts';
import { parseSecretKey, type SecretKey } from './secret-key.ts';

/** Validated runtime configuration. Every field comes from one environment variable (see README). */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  redisUrl: string | null;
  /** Prefix of every Redis key, so that several deployments (or test runs) can share one Redis. */
  redisPrefix: string;
  /** ACADEMY_REDIS_TIMEOUT_MS: how long any Redis command may take before the local fallback answers. */
  redisTimeoutMs: number;
  dataDir: string;
  maxPageSize: number;
  tokenTtlDays: number;
  /** Requests per minute per token (rate-limit policy `default`). */
  rateLimitPerMinute: number;
  smtpUrl: string | null;
  mailFrom: string;
  allowPrivateTargets: boolean;
  /** Per-attempt timeout of outbound webhook/integration requests. */
  outboundTimeoutMs: number;
  trustProxy: boolean | string;
  logLevel: string;
  metricsPort: number | null;
  versionsFile: string | null;
  /** ACADEMY_ACCESS_LOG: one info line per request (`academy serve`). */
  accessLog: boolean;
  /** ACADEMY_CORS_ORIGINS: browser origins allowed to call the API (`*` for any); none by default. */
  corsOrigins: string[] | '*' | null;
  /** Where documents and reports are kept: the data directory, or an S3-compatible bucket. */
  storage: StorageSettings;
  /** ACADEMY_DOCUMENT_TYPES_FILE: per document type, a size limit and media types replacing the defaults. */
  documentTypesFile: string | null;
  workerConcurrency: number;
  jobLeaseMs: number;
  jobPollMs: number;
  /** HTTP servers: how long a client may take to send a whole request, and its headers. */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
  /** After an answer given before the request's body arrived: how long, and how much more, it is read and discarded. */
  lingerMs: number;
  lingerBytes: number;
  /** On shutdown, how long requests (and jobs) in flight get before connections are cut. */
  shutdownGraceMs: number;
  /** Origin (and optional path prefix) for absolute links, without a trailing slash; null: links are relative. */
  publicUrl: string | null;
  /** Where invited staff accept their invitation: the email's link is this URL with `token=…` added to its query. */
  inviteUrl: string;
  /** How long an invitation link works after it was sent. */
  inviteTtlHours: number;
  /** Where a password-reset email links to (the console's reset page); `token=…` is added to its query. */
  resetUrl: string;
  /** ACADEMY_CONSOLE: serve the staff console and its sign-in at /console (`academy serve`). */
  console: boolean;
  /** ACADEMY_SESSION_IDLE_MINUTES: a console session unused this long ends (it ends 7 days after the sign-in anyway). */
  sessionIdleMinutes: number;
  /** ACADEMY_AUDIT_RETENTION_DAYS: audit events older than this are deleted by the daily `audit.purge` task. */
  auditRetentionDays: number;
  /** Answer `/metrics` on the API port to every client, not only to loopback ones. */
  metricsPublic: boolean;
  /** ACADEMY_GC_METRICS: the `nodejs_gc_duration_seconds` histogram, at a cost per garbage collection (ADR 0018). */
  gcMetrics: boolean;
  /** ACADEMY_REUSE_PORT: several `serve` processes on one machine listen on the same port (SO_REUSEPORT). */
  reusePort: boolean;
  /** Bounds on every database wait, so an outage or a stall answers a quick 503 (README: Timeouts and outages). */
  dbTimeouts: DatabaseTimeouts;
  /** ACADEMY_SQLITE_READERS: SQLite's reader threads for the long reads (GET /search, GET /students' pages): one per core, at most four, unless set; 0 for none (src/db/sqlite-readers.ts). */
  sqliteReaders: number;
  /** The key that encrypts stored secrets (README: Secrets at rest). */
  secretKey: SecretKeySettings;
  /** ACADEMY_OIDC_*: staff single sign-on with an OpenID Connect provider; null when not configured. */
  oidc: OidcSettings | null;
}

/**
 * A secret from the environment that the server must use again (the OIDC client secret): printed,
 * logged or turned into JSON it shows as `[redacted]`; `reveal()` gives it to the one call that sends it.
 */
export class EnvSecret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toJSON(): string {
    return '[redacted]';
  }

  [inspect.custom](): string {
    return this.toJSON();
  }
}

/** The OpenID Connect provider staff sign in with, and this server's client at it. */
export interface OidcSettings {
  /** ACADEMY_OIDC_ISSUER: the provider's issuer identifier, its metadata under `/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  clientSecret: EnvSecret;
  /** ACADEMY_OIDC_NAME: what the sign-in page's button says after "Sign in with". */
  name: string;
}

/** ACADEMY_SECRET_KEY or ACADEMY_SECRET_KEY_FILE; on SQLite without either, a key file under the data directory. */
export type SecretKeySettings =
  | { source: 'ACADEMY_SECRET_KEY' | 'ACADEMY_SECRET_KEY_FILE'; key: SecretKey }
  /** Read, or created (mode 0600) on first start, when the platform is assembled. */
  | { source: 'generated'; file: string };

export type StorageSettings =
  | { kind: 'local' }
  | {
      kind: 's3';
      bucket: string;
      endpoint: string | null;
      region: string;
      accessKeyId: string | null;
      secretAccessKey: string | null;
      forcePathStyle: boolean;
      prefix: string;
    };

export class ConfigError extends Error {
  readonly variable: string;

  constructor(variable: string, reason: string) {
    super(`Invalid configuration: ${variable} ${reason}`);
    this.name = 'ConfigError';
    this.variable = variable;
  }
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `must be an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${env[name]}"`);
}

/** ACADEMY_CORS_ORIGINS: `*`, or origins (`https://crm.example.org`) separated by commas. */
function corsOrigins(env: Env): string[] | '*' | null {
  const raw = env.ACADEMY_CORS_ORIGINS?.trim();
  if (!raw) return null;
  if (raw === '*') return '*';
  const origins = raw
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  for (const origin of origins) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(origin);
    } catch {
      // refused below
    }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin.replace(/\/$/, '')) {
      throw new ConfigError(
        'ACADEMY_CORS_ORIGINS',
        `must be * or origins like https://crm.example.org separated by commas, got "${origin}"`,
      );
    }
  }
  return origins.map((origin) => origin.replace(/\/$/, ''));
}

/** ACADEMY_STORAGE (local, s3) and, for s3, the bucket and how to reach it. */
function storageSettings(env: Env): StorageSettings {
  const kind = env.ACADEMY_STORAGE?.trim() || 'local';
  if (kind === 'local') return { kind };
  if (kind !== 's3') throw new ConfigError('ACADEMY_STORAGE', `must be local or s3, got "${kind}"`);
  const bucket = env.ACADEMY_S3_BUCKET?.trim() ?? '';
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new ConfigError(
      'ACADEMY_S3_BUCKET',
      'must name the bucket (3 to 63 lowercase letters, digits, dots and hyphens) when ACADEMY_STORAGE=s3',
    );
  }
  const endpoint = url(env, 'ACADEMY_S3_ENDPOINT', ['http:', 'https:']);
  const accessKeyId = env.ACADEMY_S3_ACCESS_KEY_ID?.trim() || null;
  const secretAccessKey = env.ACADEMY_S3_SECRET_ACCESS_KEY?.trim() || null;
  if ((accessKeyId === null) !== (secretAccessKey === null)) {
    throw new ConfigError(
      accessKeyId ? 'ACADEMY_S3_SECRET_ACCESS_KEY' : 'ACADEMY_S3_ACCESS_KEY_ID',
      'must be set together with its pair (or neither, to use the default AWS credentials)',
    );
  }
  const prefix = env.ACADEMY_S3_PREFIX?.trim().replace(/^\/+|\/+$/g, '') ?? '';
  if (prefix && !/^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)*$/.test(prefix)) {
    throw new ConfigError('ACADEMY_S3_PREFIX', 'must be lowercase path segments of letters, digits, - and _ (e.g. academy/production)');
  }
  return {
    kind,
    bucket,
    endpoint,
    region: env.ACADEMY_S3_REGION?.trim() || 'us-east-1',
    accessKeyId,
    secretAccessKey,
    forcePathStyle: bool(env, 'ACADEMY_S3_FORCE_PATH_STYLE', endpoint !== null),
    prefix,
  };
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use one of ${protocols.join(', ')}, got "${parsed.protocol}"`);
  }
  return raw;
}

function databaseUrl(env: Env, dataDir: string): string {
  const raw = env.DATABASE_URL?.trim();
  if (!raw) return `sqlite:${path.join(dataDir, 'academy.db')}`;
  if (raw.startsWith('sqlite:')) {
    if (raw.length === 'sqlite:'.length) throw new ConfigError('DATABASE_URL', 'names no SQLite file');
    return raw;
  }
  if (/^postgres(ql)?:\/\//.test(raw)) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL');
    }
    return raw;
  }
  throw new ConfigError('DATABASE_URL', `must start with sqlite: or postgres://, got "${raw}"`);
}

function redisPrefix(env: Env): string {
  const raw = env.ACADEMY_REDIS_PREFIX?.trim();
  if (!raw) return 'academy';
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(raw)) {
    throw new ConfigError('ACADEMY_REDIS_PREFIX', `must be 1-64 letters, digits or _ . : -, got "${raw}"`);
  }
  return raw;
}

const HOST_NAME = /^(?=.{1,253}$)[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** The address to listen on: an IPv4 or IPv6 address, or a host name (`localhost`). */
function listenHost(env: Env): string {
  const raw = env.HOST?.trim() || '127.0.0.1';
  if (!ipaddr.isValid(raw) && !HOST_NAME.test(raw)) {
    throw new ConfigError('HOST', `must be an IP address (0.0.0.0 for every interface) or a host name, got "${raw}"`);
  }
  return raw;
}

/** An IPv4 or IPv6 address, or a CIDR range of either (`10.0.0.0/8`, `fd00::/8`). */
function isAddressOrRange(entry: string): boolean {
  if (!entry.includes('/')) return ipaddr.isValid(entry);
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
}

function trustProxy(env: Env): boolean | string {
  const raw = env.ACADEMY_TRUST_PROXY?.trim();
  if (!raw) return false;
  const lower = raw.toLowerCase();
  if (['true', '1', 'yes'].includes(lower)) return true;
  if (['false', '0', 'no'].includes(lower)) return false;
  // Otherwise a comma-separated list of trusted addresses or CIDR ranges, as Fastify accepts it: each
  // one checked here, as Fastify would refuse it only once the server is being built.
  for (const entry of raw.split(',').map((part) => part.trim())) {
    if (!isAddressOrRange(entry)) {
      throw new ConfigError(
        'ACADEMY_TRUST_PROXY',
        `must be true, false or a comma-separated list of addresses/CIDR ranges; "${entry}" is neither`,
      );
    }
  }
  return raw;
}

/** The sender of every mail: a mailbox, optionally with a display name (`Academy <office@example.org>`). */
function mailFrom(env: Env): string {
  const raw = env.ACADEMY_MAIL_FROM?.trim();
  if (!raw) return 'Academy <no-reply@academy.invalid>';
  if (!/^([^<>\r\n]*<)?[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>?$/.test(raw) || raw.includes('<') !== raw.endsWith('>')) {
    throw new ConfigError('ACADEMY_MAIL_FROM', `must be an address such as "Academy <office@example.org>", got "${raw}"`);
  }
  return raw;
}

/** The base of absolute links: an http(s) URL with at most a path, never taken from a request's Host. */
function publicUrl(env: Env): string | null {
  const raw = url(env, 'ACADEMY_PUBLIC_URL', ['http:', 'https:']);
  if (raw === null) return null;
  const parsed = new URL(raw);
  if (parsed.search || parsed.hash || raw.includes('?') || raw.includes('#') || parsed.username || parsed.password) {
    throw new ConfigError('ACADEMY_PUBLIC_URL', `must be a URL without credentials, query or fragment, got "${raw}"`);
  }
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
}

/** This server's own URL of `path`: under ACADEMY_PUBLIC_URL, else under HOST:PORT. */
function ownUrl(base: string | null, host: string, port: number, path: string): string {
  if (base !== null) return `${base}${path}`;
  const local = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${local}:${port}${path}`;
}

/**
 * The acceptance page of invitations: ACADEMY_INVITE_URL (a page of the deployment's own, which may
 * carry a query of its own), else this server's page under ACADEMY_PUBLIC_URL, else under HOST:PORT.
 */
function inviteUrl(env: Env, base: string | null, host: string, port: number): string {
  const raw = url(env, 'ACADEMY_INVITE_URL', ['http:', 'https:']);
  if (raw !== null) {
    const parsed = new URL(raw);
    if (parsed.hash || parsed.username || parsed.password || parsed.searchParams.has('token')) {
      throw new ConfigError('ACADEMY_INVITE_URL', `must be a URL without credentials, fragment or token parameter, got "${raw}"`);
    }
    return parsed.toString();
  }
  return ownUrl(base, host, port, '/invitations/accept');
}

/** The HTTP servers' limits and exposure (a header timeout longer than the whole request's would never apply). */
function httpSettings(env: Env) {
  const requestTimeoutMs = int(env, 'ACADEMY_REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000);
  const headersTimeoutMs = int(env, 'ACADEMY_HEADERS_TIMEOUT_MS', Math.min(10_000, requestTimeoutMs), 100, 3_600_000);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(
      'ACADEMY_HEADERS_TIMEOUT_MS',
      `must not exceed ACADEMY_REQUEST_TIMEOUT_MS (${requestTimeoutMs}), got ${headersTimeoutMs}`,
    );
  }
  return {
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs: int(env, 'ACADEMY_KEEP_ALIVE_TIMEOUT_MS', 5000, 100, 600_000),
    lingerMs: int(env, 'ACADEMY_LINGER_MS', 5000, 0, 600_000),
    lingerBytes: int(env, 'ACADEMY_LINGER_BYTES', 4 * 1024 * 1024, 0, 1024 * 1024 * 1024),
    shutdownGraceMs: int(env, 'ACADEMY_SHUTDOWN_GRACE_SECONDS', 10, 0, 3600) * 1000,
    publicUrl: publicUrl(env),
    metricsPublic: bool(env, 'ACADEMY_METRICS_PUBLIC', false),
    gcMetrics: bool(env, 'ACADEMY_GC_METRICS', false),
    reusePort: bool(env, 'ACADEMY_REUSE_PORT', false),
  };
}

const KEY_FORMAT = 'must be a random key of 32 bytes, written in base64 (e.g. the output of `openssl rand -base64 32`) or as 64 hex digits';

/**
 * The secret key. PostgreSQL serves several processes, often on several machines, and each must hold
 * the same key: a key file generated by whichever started first would differ per machine, so there the
 * operator sets it. SQLite is one machine's file, and its key is kept beside it.
 */
function secretKeySettings(env: Env, dataDir: string, databaseUrl: string): SecretKeySettings {
  const value = env.ACADEMY_SECRET_KEY?.trim();
  const file = env.ACADEMY_SECRET_KEY_FILE?.trim();
  if (value && file) throw new ConfigError('ACADEMY_SECRET_KEY_FILE', 'cannot be set together with ACADEMY_SECRET_KEY: set one, not both');
  if (value) {
    const key = parseSecretKey(value);
    if (!key) throw new ConfigError('ACADEMY_SECRET_KEY', KEY_FORMAT);
    return { source: 'ACADEMY_SECRET_KEY', key };
  }
  if (file) {
    let text: string;
    try {
      text = readFileSync(path.resolve(file), 'utf8');
    } catch (error) {
      throw new ConfigError(
        'ACADEMY_SECRET_KEY_FILE',
        `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}): ${file}`,
      );
    }
    const key = parseSecretKey(text);
    if (!key) throw new ConfigError('ACADEMY_SECRET_KEY_FILE', `names a file whose content ${KEY_FORMAT}: ${file}`);
    return { source: 'ACADEMY_SECRET_KEY_FILE', key };
  }
  if (!databaseUrl.startsWith('sqlite:')) {
    throw new ConfigError(
      'ACADEMY_SECRET_KEY',
      'must be set (or ACADEMY_SECRET_KEY_FILE) with a PostgreSQL DATABASE_URL: every process must encrypt stored secrets with the same key. ' +
        'Generate one with: openssl rand -base64 32',
    );
  }
  return { source: 'generated', file: path.join(dataDir, 'secret.key') };
}

const OIDC_REQUIRED = ['ACADEMY_OIDC_ISSUER', 'ACADEMY_OIDC_CLIENT_ID', 'ACADEMY_OIDC_CLIENT_SECRET'] as const;

/** Whether `hostname` (as URL gives it) is this machine: the only place a plain-http issuer may be. */
function isLoopbackHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (bare === 'localhost') return true;
  return ipaddr.isValid(bare) && ipaddr.process(bare).range() === 'loopback';
}

/**
 * Single sign-on: the issuer, the client id and the client secret together, or none of them. The
 * issuer is https, except on this machine (a provider tried locally), and names no query or fragment.
 */
function oidcSettings(env: Env): OidcSettings | null {
  const given = OIDC_REQUIRED.filter((name) => env[name]?.trim());
  const name = env.ACADEMY_OIDC_NAME?.trim();
  if (given.length === 0) {
    if (name) throw new ConfigError('ACADEMY_OIDC_NAME', `has no effect without ${OIDC_REQUIRED.join(', ')}: set them too, or unset it`);
    return null;
  }
  const missing = OIDC_REQUIRED.find((variable) => !given.includes(variable));
  if (missing) {
    throw new ConfigError(missing, `must be set too: single sign-on needs ${OIDC_REQUIRED.join(', ')} together (or none of them)`);
  }
  const issuer = url(env, 'ACADEMY_OIDC_ISSUER', ['https:', 'http:']) as string;
  const parsed = new URL(issuer);
  if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) {
    throw new ConfigError(
      'ACADEMY_OIDC_ISSUER',
      `must be an https URL (http only on this machine, e.g. http://localhost:8080), got "${issuer}"`,
    );
  }
  if (parsed.search || parsed.hash || issuer.includes('?') || issuer.includes('#') || parsed.username || parsed.password) {
    throw new ConfigError('ACADEMY_OIDC_ISSUER', `must be the issuer's URL without credentials, query or fragment, got "${issuer}"`);
  }
  if (name !== undefined && (name.length > 60 || /\p{Cc}/u.test(name))) {
    throw new ConfigError('ACADEMY_OIDC_NAME', 'must be one line of at most 60 characters (the button says "Sign in with <name>")');
  }
  return {
    issuer,
    clientId: (env.ACADEMY_OIDC_CLIENT_ID as string).trim(),
    clientSecret: new EnvSecret((env.ACADEMY_OIDC_CLIENT_SECRET as string).trim()),
    name: name || 'single sign-on',
  };
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Config {
  const dataDir = path.resolve(env.ACADEMY_DATA_DIR?.trim() || './data');
  const logLevel = env.LOG_LEVEL?.trim() || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  const host = listenHost(env);
  const metricsPortRaw = env.ACADEMY_METRICS_PORT?.trim();
  const port = int(env, 'PORT', 3000, 0, 65535);
  const http = httpSettings(env);
  const database = databaseUrl(env, dataDir);
  return {
    port,
    host,
    databaseUrl: database,
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix: redisPrefix(env),
    redisTimeoutMs: int(env, 'ACADEMY_REDIS_TIMEOUT_MS', 250, 10, 10_000),
    dataDir,
    maxPageSize: int(env, 'ACADEMY_MAX_PAGE_SIZE', 100, 1, 1000),
    tokenTtlDays: int(env, 'ACADEMY_TOKEN_TTL_DAYS', 365, 1, 36500),
    rateLimitPerMinute: int(env, 'ACADEMY_RATE_LIMIT_PER_MINUTE', 120, 1, 100_000_000),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: mailFrom(env),
    allowPrivateTargets: bool(env, 'ACADEMY_ALLOW_PRIVATE_TARGETS', false),
    outboundTimeoutMs: int(env, 'ACADEMY_OUTBOUND_TIMEOUT_MS', 10_000, 100, 120_000),
    trustProxy: trustProxy(env),
    logLevel,
    metricsPort: metricsPortRaw ? int(env, 'ACADEMY_METRICS_PORT', 0, 1, 65535) : null,
    versionsFile: env.ACADEMY_VERSIONS_FILE?.trim() || null,
    documentTypesFile: env.ACADEMY_DOCUMENT_TYPES_FILE?.trim() || null,
    storage: storageSettings(env),
    corsOrigins: corsOrigins(env),
    accessLog: bool(env, 'ACADEMY_ACCESS_LOG', true),
    workerConcurrency: int(env, 'ACADEMY_WORKER_CONCURRENCY', 4, 1, 64),
    jobLeaseMs: int(env, 'ACADEMY_JOB_LEASE_SECONDS', 300, 1, 86_400) * 1000,
    jobPollMs: int(env, 'ACADEMY_JOB_POLL_MS', 1000, 10, 60_000),
    ...http,
    inviteUrl: inviteUrl(env, http.publicUrl, host, port),
    inviteTtlHours: int(env, 'ACADEMY_INVITE_TTL_HOURS', 168, 1, 2160),
    console: bool(env, 'ACADEMY_CONSOLE', true),
    resetUrl: ownUrl(http.publicUrl, host, port, '/console/password/reset'),
    sessionIdleMinutes: int(env, 'ACADEMY_SESSION_IDLE_MINUTES', 480, 5, 10_080),
    auditRetentionDays: int(env, 'ACADEMY_AUDIT_RETENTION_DAYS', 400, 1, 3650),
    dbTimeouts: {
      acquireMs: int(env, 'ACADEMY_DB_ACQUIRE_TIMEOUT_MS', 5000, 100, 120_000),
      statementMs: int(env, 'ACADEMY_DB_STATEMENT_TIMEOUT_MS', 15_000, 100, 3_600_000),
      lockMs: int(env, 'ACADEMY_DB_LOCK_TIMEOUT_MS', 5000, 100, 600_000),
      idleInTransactionMs: int(env, 'ACADEMY_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS', 60_000, 1000, 86_400_000),
    },
    sqliteReaders: int(env, 'ACADEMY_SQLITE_READERS', Math.min(4, availableParallelism()), 0, 16),
    secretKey: secretKeySettings(env, dataDir, database),
    oidc: oidcSettings(env),
  };
}

/**
 * Reads `.env` from the working directory into `process.env` without overriding variables that are
 * already set, so the real environment always wins.
 */
export function loadDotenv(file = path.resolve('.env')): void {
  if (!existsSync(file)) return;
  const parsed = parseDotenv(readFileSync(file));
  for (const [key, value] of Object.entries(parsed)) {
    if (process.env[key] === undefined) process.env[key] = value;
  }
}

const LOOPBACK_HOSTS = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/i;

/**
 * What `academy serve` warns of at start when links it writes would not work for others: without
 * ACADEMY_PUBLIC_URL, links in emails and sign-in links name this machine (`localhost` or HOST:PORT),
 * which nobody else can open once the server listens beyond loopback or sits behind a proxy. Null
 * when the public URL is set, or when the server answers on loopback only (a developer's machine).
 */
export function publicUrlWarning(config: Pick<Config, 'publicUrl' | 'host' | 'port' | 'trustProxy'>): string | null {
  if (config.publicUrl !== null) return null;
  const beyondLoopback = !LOOPBACK_HOSTS.test(config.host);
  if (!beyondLoopback && config.trustProxy === false) return null;
  const where = beyondLoopback ? `listens on ${config.host}:${config.port}` : 'trusts a proxy (ACADEMY_TRUST_PROXY)';
  return `ACADEMY_PUBLIC_URL is not set, and the server ${where}: links in invitation and password-reset emails, sign-in links and passkeys will name ${ownUrl(null, config.host, config.port, '')}, which other computers cannot open. Set ACADEMY_PUBLIC_URL to the address people use, e.g. https://academy.example.org.`;
}
