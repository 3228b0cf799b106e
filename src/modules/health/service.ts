import type { Logger } from 'pino';
import type { Database } from '../../db/database.ts';
import { NotFoundError } from '../../platform/errors.ts';
import type { Outbox } from '../../platform/events/outbox.ts';
import type { Platform } from '../../platform/platform.ts';
import { CHECKS, type CheckDeps, describeError, type HealthStatus, rank, worst } from './checks.ts';
import {
  createHealthRepository,
  type HealthCheckRow,
  type HealthRepository,
  OVERALL_STATUS_KEY,
  SCHEDULER_HEARTBEAT_KEY,
} from './repository.ts';

export interface CheckResult {
  name: string;
  status: HealthStatus;
  component_type: string;
  observed_value: number | null;
  observed_unit: string | null;
  output: string | null;
  /** When the result was obtained. */
  time: string;
}

export interface HealthReport {
  status: HealthStatus;
  checks: CheckResult[];
}

interface CheckConfig {
  name: string;
  component_type: string;
  warn: number | null;
  fail: number | null;
  timeout_ms: number;
}

function configOf(row: HealthCheckRow): CheckConfig {
  return {
    name: row.name,
    component_type: row.component_type,
    warn: row.warn_threshold,
    fail: row.fail_threshold,
    timeout_ms: row.timeout_ms,
  };
}

export interface HealthServiceDeps {
  repository: HealthRepository;
  checks: CheckDeps;
  database: Database;
  outbox: Outbox;
  logger: Logger;
}

export function createHealthService(deps: HealthServiceDeps) {
  const { clock } = deps.checks;

  /**
   * Runs one check under its own timeout; whatever goes wrong becomes a `fail` result, never an
   * exception. A check past its timeout is reported at once; its late answer is ignored.
   */
  async function runCheck(config: CheckConfig): Promise<CheckResult> {
    const definition = CHECKS[config.name];
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${config.timeout_ms} ms`)), config.timeout_ms);
    });
    const base = { name: config.name, component_type: config.component_type };
    try {
      if (!definition) throw new Error('This check has no implementation in this version.');
      const work = definition.run(deps.checks, { warn: config.warn, fail: config.fail });
      // A check still running after its timeout must not surface later as an unhandled rejection.
      work.catch(() => {});
      const observation = await Promise.race([work, timeout]);
      return { ...base, ...observation, time: clock.now().toISOString() };
    } catch (error) {
      return {
        ...base,
        status: 'fail',
        observed_value: null,
        observed_unit: null,
        output: describeError(error),
        time: clock.now().toISOString(),
      };
    } finally {
      clearTimeout(timer);
    }
  }

  /** The enabled checks that apply to this deployment. */
  async function configured(): Promise<CheckConfig[]> {
    return (await deps.repository.listEnabled()).map(configOf).filter((row) => CHECKS[row.name]?.active(deps.checks) ?? true);
  }

  async function record(results: CheckResult[]): Promise<void> {
    await Promise.all(results.map((r) => deps.repository.recordStatus(r.name, r.status, r.time))).catch((error) =>
      deps.logger.warn({ err: error }, 'health checks: could not record their results'),
    );
  }

  async function runAll(): Promise<HealthReport> {
    const results = await Promise.all((await configured()).map(runCheck));
    await record(results);
    return { status: worst(results.map((r) => r.status)), checks: results };
  }

  return {
    /** Runs every enabled check that applies to this deployment, concurrently. */
    runAll,

    async runOne(name: string): Promise<CheckResult> {
      const row = await deps.repository.findByName(name);
      const definition = CHECKS[name];
      if (!row?.enabled || (definition && !definition.active(deps.checks))) throw new NotFoundError();
      const result = await runCheck(configOf(row));
      await record([result]);
      return result;
    },

    /**
     * The scheduled run: checks everything and, when the overall status got worse than the one last
     * stored, emits `alert.sent` in the same transaction that stores the new status.
     */
    async runAndAlert(): Promise<{ report: HealthReport; previous: HealthStatus | undefined; alerted: boolean }> {
      const report = await runAll();
      const stored = await deps.repository.stateValue(OVERALL_STATUS_KEY);
      const previous = statusOf(stored);
      if (previous === report.status) return { report, previous, alerted: false };
      const alerted = await deps.database.db.transaction().execute(async (trx) => {
        const swapped = await deps.repository.swapOverall(trx, stored, report.status, clock.now().toISOString());
        // Never stored counts as pass: a first run that finds a failure alerts; a first clean run does not.
        if (!swapped || rank(report.status) <= rank(previous ?? 'pass')) return false;
        await deps.outbox.emit(trx, 'alert.sent', {
          previous: previous ?? null,
          current: report.status,
          failing_checks: report.checks
            .filter((c) => c.status !== 'pass')
            .map((c) => ({ name: c.name, status: c.status, output: c.output })),
        });
        return true;
      });
      return { report, previous, alerted };
    },
  };
}

function statusOf(value: string | undefined): HealthStatus | undefined {
  return value === 'pass' || value === 'warn' || value === 'fail' ? value : undefined;
}

export type HealthService = ReturnType<typeof createHealthService>;

/** The health service over a platform's own database, ports and outbox. */
export function healthServiceFor(platform: Platform): HealthService {
  const repository = createHealthRepository(platform.database.db);
  return createHealthService({
    repository,
    database: platform.database,
    outbox: platform.outbox,
    logger: platform.logger,
    checks: {
      database: platform.database,
      redis: platform.redis,
      mailer: platform.mail,
      storage: platform.storage,
      jobs: platform.jobs,
      clock: platform.clock,
      dataDir: platform.config.dataDir,
      schedulerHeartbeat: () => repository.stateValue(SCHEDULER_HEARTBEAT_KEY),
    },
  });
}
