import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import pino, { type Logger } from 'pino';
import { type Config, ConfigError, type StorageSettings } from '../config.ts';
import { type Database, dialectOf, openDatabase, sqliteFile } from '../db/database.ts';
import { parseSecretKey, SecretKey } from '../secret-key.ts';
import { PRODUCT_VERSION } from './build.ts';
import { type ChangeFeed, createChangeFeed } from './changes.ts';
import { type Clock, systemClock } from './clock.ts';
import { createDependencyStatus, type DependencyStatus } from './dependencies.ts';
import { createOutbox, type Outbox } from './events/outbox.ts';
import { createEventRepository, type EventRepository } from './events/repository.ts';
import { createJobQueue, type JobQueue } from './jobs/queue.ts';
import { createJobRegistry, type JobRegistry } from './jobs/registry.ts';
import { createJobRepository, type JobRepository } from './jobs/repository.ts';
import { createWorker, type Worker } from './jobs/worker.ts';
import { createMailer, type Mailer } from './mail.ts';
import { createRateLimiter, type RateLimiter } from './rate-limit.ts';
import { serializeRequest } from './redact.ts';
import { connectRedis } from './redis.ts';
import { createSecretBox, type SecretBox } from './secrets/box.ts';
import { createLocalStorage, lazyStorage, type Storage, s3Root } from './storage.ts';
import { createTokenRepository } from './tokens/repository.ts';
import { createTokenService, type TokenService } from './tokens/service.ts';
import { type ApiVersion, loadVersions } from './versions.ts';

/**
 * Everything a process needs, assembled once. `serve`, `worker`, the CLI and the tests build the same
 * platform; only the entrypoint differs.
 */
export interface Platform {
  config: Config;
  database: Database;
  clock: Clock;
  logger: Logger;
  redis: Redis | null;
  rateLimiter: RateLimiter;
  versions: ApiVersion[];
  tokens: TokenService;
  /** Tells in-memory caches when data changed in this or another process. */
  changes: ChangeFeed;
  jobs: JobRepository;
  queue: JobQueue;
  events: EventRepository;
  outbox: Outbox;
  /** Handlers of every job, registered by the modules at assembly. */
  registry: JobRegistry;
  /** A worker over this platform's queue (not started); `handlers` replaces the registry (tests, tools). */
  createWorker(options?: Partial<{ concurrency: number; leaseMs: number; pollMs: number }>, handlers?: JobRegistry): Worker;
  /** Outgoing mail: SMTP with SMTP_URL, else .eml files under the data directory. */
  mail: Mailer;
  /** Stored files (documents, reports): under `<ACADEMY_DATA_DIR>/files/`, or in an S3 bucket (ACADEMY_STORAGE=s3). */
  storage: Storage;
  /** Logs each dependency's outage once (a warning) and its recovery (info). */
  dependencies: DependencyStatus;
  /** Encrypts and opens the secrets the server keeps to use again (webhook signing secrets, integration credentials). */
  secrets: SecretBox;
  close(): Promise<void>;
}

export interface PlatformOptions {
  clock?: Clock;
  logger?: Logger;
}

/**
 * The log: one JSON object per line, with the level's name and an ISO time (readable as they are, or
 * through `pino-pretty`), and on every line the process id, the host's name and the product's version,
 * so that lines from several processes and releases can be told apart once gathered.
 */
export function createLogger(config: Pick<Config, 'logLevel'>, destination: NodeJS.WritableStream = process.stdout): Logger {
  return pino(
    {
      level: config.logLevel,
      base: { pid: process.pid, hostname: hostname(), version: PRODUCT_VERSION },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: ['req.headers.authorization'],
      serializers: { req: serializeRequest },
    },
    destination,
  );
}

/**
 * The SQLite file's directory must exist, except the data directory, which is created on first start.
 * A mistyped DATABASE_URL must not quietly create a directory tree (and an empty database) elsewhere.
 */
function prepareSqliteDirectory(config: Config): void {
  if (dialectOf(config.databaseUrl) !== 'sqlite') return;
  const file = sqliteFile(config.databaseUrl);
  if (file === ':memory:') return;
  const directory = path.dirname(path.resolve(file));
  if (directory === config.dataDir) mkdirSync(directory, { recursive: true, mode: 0o700 });
  else if (!existsSync(directory)) {
    throw new ConfigError('DATABASE_URL', `names a file in a directory that does not exist (${directory}); create the directory first`);
  }
}

/**
 * The key of the embedded database's deployment: read from the data directory, or made there on first
 * start (mode 0600). It is written under a temporary name and linked into place, so a process starting
 * at the same moment reads either no file or the whole key, and the first link wins.
 */
function generatedSecretKey(file: string): SecretKey {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  if (!existsSync(file)) {
    const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
    writeFileSync(partial, `${SecretKey.generate().text()}\n`, { flag: 'wx', mode: 0o600 });
    try {
      linkSync(partial, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(partial, { force: true });
    }
  }
  const key = parseSecretKey(readFileSync(file, 'utf8'));
  if (!key) {
    throw new ConfigError(
      'ACADEMY_SECRET_KEY',
      `is not set, and the key file kept in the data directory (${file}) does not hold a key: restore it from a backup, or set ACADEMY_SECRET_KEY`,
    );
  }
  return key;
}

/** S3 storage, its client loaded when a file is first stored or read (lazyStorage). */
function s3Storage(settings: Extract<StorageSettings, { kind: 's3' }>): Storage {
  return lazyStorage(s3Root(settings), async () => (await import('./storage-s3.ts')).createS3Storage(settings));
}

export function createPlatform(config: Config, options: PlatformOptions = {}): Platform {
  // Everything that can refuse the configuration runs before any connection is opened.
  const versions = loadVersions(config.versionsFile);
  prepareSqliteDirectory(config);
  const secrets = createSecretBox(
    config.secretKey.source === 'generated' ? generatedSecretKey(config.secretKey.file) : config.secretKey.key,
  );
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config);
  const database = openDatabase(config.databaseUrl, { timeouts: config.dbTimeouts, readers: config.sqliteReaders });
  const redis = config.redisUrl ? connectRedis(config.redisUrl, config.redisTimeoutMs) : null;
  // Redis being down is also reported by the health check; the limiter falls back to local counters
  // (and says so). ioredis reports an error at every reconnect attempt: logged once per outage.
  const dependencies = createDependencyStatus(logger);
  redis?.on('error', (error) => dependencies.lost('redis', error));
  redis?.on('ready', () => dependencies.ok('redis'));
  const changes = createChangeFeed(database, logger);
  const tokens = createTokenService({
    tokens: createTokenRepository(database.db, changes),
    clock,
    defaultTtlDays: config.tokenTtlDays,
    changes,
  });
  // Token usage is written in batches (at most every 30 s per process), never on the request path.
  const usageFlush = setInterval(() => {
    tokens.flushUsage().catch((error) => logger.warn({ err: error }, 'could not record token usage'));
  }, 30_000);
  usageFlush.unref();
  const jobs = createJobRepository(database.db, database.dialect);
  const queue = createJobQueue({ jobs, clock });
  const events = createEventRepository(database.db);
  const outbox = createOutbox({ events, queue, clock });
  const registry = createJobRegistry();
  const mail = createMailer(config);
  const rateLimiter = createRateLimiter({
    redis,
    prefix: `${config.redisPrefix}:rl`,
    limits: { default: config.rateLimitPerMinute },
    logger,
  });
  const platform: Platform = {
    config,
    database,
    clock,
    logger,
    redis,
    rateLimiter,
    versions,
    tokens,
    changes,
    jobs,
    queue,
    events,
    outbox,
    registry,
    createWorker: (options = {}, handlers = registry) =>
      createWorker(
        { database, jobs, queue, outbox, registry: handlers, expectedJobs: registry.names(), clock, logger },
        {
          concurrency: options.concurrency ?? config.workerConcurrency,
          leaseMs: options.leaseMs ?? config.jobLeaseMs,
          pollMs: options.pollMs ?? config.jobPollMs,
        },
      ),
    mail,
    storage: config.storage.kind === 's3' ? s3Storage(config.storage) : createLocalStorage(path.join(config.dataDir, 'files')),
    dependencies,
    secrets,
    async close() {
      clearInterval(usageFlush);
      await tokens.flushUsage().catch((error) => logger.warn({ err: error }, 'could not record token usage'));
      await rateLimiter.close();
      redis?.disconnect();
      mail.close();
      await changes.close();
      await database.close();
    },
  };
  registry.register('system.noop', {
    async handler(payload) {
      if (payload.sleepMs) await new Promise((resolve) => setTimeout(resolve, payload.sleepMs));
    },
  });
  return platform;
}
