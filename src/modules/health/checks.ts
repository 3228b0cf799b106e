import { mkdir, statfs } from 'node:fs/promises';
import type { Redis } from 'ioredis';
import { type Database, ping } from '../../db/database.ts';
import type { Clock } from '../../platform/clock.ts';
import type { JobRepository } from '../../platform/jobs/repository.ts';
import type { Mailer } from '../../platform/mail.ts';
import type { Storage } from '../../platform/storage.ts';

export const HEALTH_STATUSES = ['pass', 'warn', 'fail'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

/** Worst wins: the overall status is the highest rank among the checks. */
export function rank(status: HealthStatus): number {
  return HEALTH_STATUSES.indexOf(status);
}

export function worst(statuses: HealthStatus[]): HealthStatus {
  return statuses.reduce<HealthStatus>((a, b) => (rank(b) > rank(a) ? b : a), 'pass');
}

/** What the checks look at: the platform's own ports, nothing else. */
export interface CheckDeps {
  database: Database;
  redis: Redis | null;
  mailer: Mailer;
  storage: Storage;
  jobs: JobRepository;
  clock: Clock;
  dataDir: string;
  /** When the scheduler last recorded a heartbeat (ISO time), if ever. */
  schedulerHeartbeat(): Promise<string | undefined>;
}

export interface Thresholds {
  warn: number | null;
  fail: number | null;
}

export interface Observation {
  status: HealthStatus;
  observed_value: number | null;
  observed_unit: string | null;
  output: string | null;
}

export interface CheckDefinition {
  /** A check of a part this deployment does not use (Redis without REDIS_URL) is left out. */
  active(deps: CheckDeps): boolean;
  run(deps: CheckDeps, thresholds: Thresholds): Promise<Observation>;
}

/** Higher is worse (latency, age). */
function above(value: number, t: Thresholds): HealthStatus {
  if (t.fail !== null && value >= t.fail) return 'fail';
  if (t.warn !== null && value >= t.warn) return 'warn';
  return 'pass';
}

/** Lower is worse (free space). */
function below(value: number, t: Thresholds): HealthStatus {
  if (t.fail !== null && value <= t.fail) return 'fail';
  if (t.warn !== null && value <= t.warn) return 'warn';
  return 'pass';
}

function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return round(performance.now() - started);
}

function gib(bytes: number): string {
  return `${round(bytes / 1024 ** 3)} GiB`;
}

function latency(ms: number, t: Thresholds, what: string): Observation {
  const status = above(ms, t);
  return {
    status,
    observed_value: ms,
    observed_unit: 'ms',
    output: status === 'pass' ? null : `${what} took ${ms} ms (warn at ${t.warn ?? '-'} ms, fail at ${t.fail ?? '-'} ms)`,
  };
}

/** Every built-in check, by the name its health_checks row carries. */
export const CHECKS: Record<string, CheckDefinition> = {
  database: {
    active: () => true,
    async run(deps, t) {
      return latency(await timed(() => ping(deps.database)), t, 'A database round trip');
    },
  },

  redis: {
    active: (deps) => deps.redis !== null,
    async run(deps, t) {
      const redis = deps.redis as Redis;
      // Commands are not queued while disconnected, so a down server answers at once, not at the timeout.
      if (redis.status !== 'ready') {
        return { status: 'fail', observed_value: null, observed_unit: 'ms', output: `Redis is not connected (${redis.status}).` };
      }
      return latency(await timed(() => redis.ping()), t, 'A Redis PING');
    },
  },

  queue: {
    active: () => true,
    async run(deps, t) {
      const now = deps.clock.now();
      const oldest = await deps.jobs.oldestDueAt(now.toISOString());
      const age = oldest ? Math.max(0, round((now.getTime() - Date.parse(oldest)) / 1000, 0)) : 0;
      const status = above(age, t);
      return {
        status,
        observed_value: age,
        observed_unit: 's',
        output: !oldest ? 'No job is waiting.' : `The oldest due job has waited ${age} s for a worker.`,
      };
    },
  },

  storage: {
    active: () => true,
    async run(deps, t) {
      return latency(await timed(() => deps.storage.probe()), t, 'Writing, reading and deleting a probe file');
    },
  },

  mail: {
    active: () => true,
    async run(deps) {
      const ms = await timed(() => deps.mailer.verify());
      return {
        status: 'pass',
        observed_value: ms,
        observed_unit: 'ms',
        output:
          deps.mailer.mode === 'smtp' ? 'The SMTP server accepted a connection.' : 'Mail is written as .eml files to the data directory.',
      };
    },
  },

  disk: {
    active: () => true,
    async run(deps, t) {
      await mkdir(deps.dataDir, { recursive: true, mode: 0o700 });
      const fs = await statfs(deps.dataDir);
      const total = fs.blocks * fs.bsize;
      const free = fs.bavail * fs.bsize;
      const percent = total > 0 ? round((free / total) * 100) : 0;
      return {
        status: below(percent, t),
        observed_value: percent,
        observed_unit: '%',
        output: `${gib(free)} free of ${gib(total)} in the data directory.`,
      };
    },
  },

  scheduler: {
    active: () => true,
    async run(deps, t) {
      const heartbeat = await deps.schedulerHeartbeat();
      if (!heartbeat) return { status: 'warn', observed_value: null, observed_unit: 's', output: 'No scheduler has run yet.' };
      const age = Math.max(0, round((deps.clock.now().getTime() - Date.parse(heartbeat)) / 1000, 0));
      const status = above(age, t);
      return {
        status,
        observed_value: age,
        observed_unit: 's',
        output: status === 'pass' ? null : `The scheduler was last seen ${age} s ago; is a worker running?`,
      };
    },
  },
};

/**
 * An error's message for an operator, without file paths (system errors name the file they were
 * about; clients must never see server paths).
 */
const SYSTEM_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on device',
  EROFS: 'read-only file system',
};

/**
 * A failed check's `output`, safe to show to API clients: driver messages can carry internal
 * addresses, user names and file paths, which stay in the logs.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return 'The check failed.';
  const code = (error as NodeJS.ErrnoException).code;
  if (code && SYSTEM_ERRORS[code]) return `${SYSTEM_ERRORS[code]} (${code})`;
  return (error.message || error.name)
    .replace(/\[?[0-9a-f]*:[0-9a-f:]+\]?(:\d+)?/gi, '<address>')
    .replace(/\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b/g, '<address>')
    .replace(/(user|role|database) "[^"]*"/g, '$1 "…"')
    .replace(/(^|\s)\/[^\s,;)]+/g, '$1<path>');
}
