import type { Logger } from 'pino';
import type { Database } from '../../db/database.ts';
import type { ServiceContext } from '../../platform/context.ts';
import type { DependencyStatus } from '../../platform/dependencies.ts';
import { DatabaseUnavailableError, NotFoundError } from '../../platform/errors.ts';
import type { Outbox } from '../../platform/events/outbox.ts';
import { CHECKS, type CheckDeps, describeError, type HealthStatus, rank, worst } from './checks.ts';
import { type HealthCheckRow, type HealthRepository, OVERALL_STATUS_KEY } from './repository.ts';

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
  /** Where a failing dependency check is logged, once per outage (and its recovery). */
  dependencies: DependencyStatus;
}

/** The checks of external dependencies: a failure of one is an outage to log, not only to report. */
const DEPENDENCY_CHECKS = new Set(['database', 'redis', 'storage', 'mail']);

/**
 * Stands in for the configuration while it cannot be read: the database check as migration 0003
 * defines it, so that an outage is reported by the check made for it.
 */
const DATABASE_CHECK: CheckConfig = { name: 'database', component_type: 'datastore', warn: 100, fail: 1000, timeout_ms: 2000 };

/** `work`'s result, or "timed out after N ms" once `ms` has passed; a late result is ignored. */
async function deadline<T>(work: Promise<T>, ms: number): Promise<T> {
  // Work still running after its timeout must not surface later as an unhandled rejection.
  work.catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function createHealthService(deps: HealthServiceDeps) {
  const { clock } = deps.checks;
  /** The configuration last read, which stands in while the database cannot give it. */
  let known: CheckConfig[] = [];

  function failed(config: CheckConfig, error: unknown): CheckResult {
    return {
      name: config.name,
      component_type: config.component_type,
      status: 'fail',
      observed_value: null,
      observed_unit: null,
      output: describeError(error),
      time: clock.now().toISOString(),
    };
  }

  /**
   * Runs one check under its own timeout; whatever goes wrong becomes a `fail` result, never an
   * exception. A check past its timeout is reported at once; its late answer is ignored.
   */
  async function runCheck(config: CheckConfig): Promise<CheckResult> {
    const definition = CHECKS[config.name];
    try {
      if (!definition) throw new Error('This check has no implementation in this version.');
      const observation = await deadline(definition.run(deps.checks, { warn: config.warn, fail: config.fail }), config.timeout_ms);
      return { name: config.name, component_type: config.component_type, ...observation, time: clock.now().toISOString() };
    } catch (error) {
      return failed(config, error);
    }
  }

  const applies = (config: CheckConfig) => CHECKS[config.name]?.active(deps.checks) ?? true;
  const databaseCheck = () => known.find((c) => c.name === 'database') ?? DATABASE_CHECK;

  /**
   * Reads from the configuration, bounded like the database check itself: a health report must not
   * wait for the database's longer timeouts.
   */
  function read<T>(query: () => Promise<T>): Promise<T> {
    return deadline(query(), databaseCheck().timeout_ms);
  }

  /**
   * The enabled checks that apply to this deployment, and, when the database could not give them, why:
   * the last configuration read stands in, with the database check failing for that reason.
   */
  async function configured(): Promise<{ configs: CheckConfig[]; outage?: { error: unknown } }> {
    try {
      known = (await read(() => deps.repository.listEnabled())).map(configOf);
      return { configs: known.filter(applies) };
    } catch (error) {
      return { configs: [databaseCheck(), ...known.filter((c) => c.name !== 'database' && applies(c))], outage: { error } };
    }
  }

  function logOutages(results: CheckResult[]): void {
    for (const result of results) {
      if (!DEPENDENCY_CHECKS.has(result.name)) continue;
      if (result.status === 'fail') deps.dependencies.lost(result.name, new Error(result.output ?? 'check failed'));
      else deps.dependencies.ok(result.name);
    }
  }

  async function record(results: CheckResult[]): Promise<void> {
    await Promise.all(results.map((r) => deps.repository.recordStatus(r.name, r.status, r.time))).catch((error) =>
      deps.logger.warn({ err: error }, 'health checks: could not record their results'),
    );
  }

  async function runAll(): Promise<HealthReport> {
    const { configs, outage } = await configured();
    const results = await Promise.all(configs.map((c) => (outage && c.name === 'database' ? failed(c, outage.error) : runCheck(c))));
    logOutages(results);
    // Statuses are recorded in the database, which the outage keeps out of reach.
    if (!outage) await record(results);
    return { status: worst(results.map((r) => r.status)), checks: results };
  }

  return {
    /** Runs every enabled check that applies to this deployment, concurrently. */
    runAll: (_ctx: ServiceContext) => runAll(),

    async runOne(_ctx: ServiceContext, name: string): Promise<CheckResult> {
      let row: HealthCheckRow | undefined;
      try {
        row = await read(() => deps.repository.findByName(name));
      } catch (error) {
        // Without its configuration a check cannot run; the database check reports why.
        if (name === 'database') return failed(databaseCheck(), error);
        throw new DatabaseUnavailableError();
      }
      const definition = CHECKS[name];
      if (!row?.enabled || (definition && !definition.active(deps.checks))) throw new NotFoundError();
      const result = await runCheck(configOf(row));
      logOutages([result]);
      await record([result]);
      return result;
    },

    /**
     * The scheduled run: checks everything and, when the overall status got worse than the one last
     * stored, emits `alert.sent` in the same transaction that stores the new status.
     */
    async runAndAlert(ctx: ServiceContext): Promise<{ report: HealthReport; previous: HealthStatus | undefined; alerted: boolean }> {
      const report = await runAll();
      const stored = await deps.repository.stateValue(OVERALL_STATUS_KEY);
      const previous = statusOf(stored);
      if (previous === report.status) return { report, previous, alerted: false };
      const alerted = await deps.database.db.transaction().execute(async (trx) => {
        const swapped = await deps.repository.swapOverall(trx, stored, report.status, ctx.clock.now().toISOString());
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
