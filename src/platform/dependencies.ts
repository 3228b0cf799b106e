import type { Logger } from 'pino';

/**
 * What this process last saw of each external dependency (Redis, the database, SMTP, storage), so
 * that an outage is logged once: a warning when it is first lost, an info line when it is back, and
 * nothing for the failures in between (every request or reconnect attempt meanwhile).
 */
export interface DependencyStatus {
  lost(name: string, error: unknown): void;
  ok(name: string): void;
}

export function createDependencyStatus(logger: Logger): DependencyStatus {
  const down = new Set<string>();
  return {
    lost(name, error) {
      if (down.has(name)) return;
      down.add(name);
      // The reason, not the error: an outage is one line, without a stack trace.
      logger.warn({ dependency: name, reason: error instanceof Error ? error.message : String(error) }, `${name} unavailable`);
    },
    ok(name) {
      if (!down.delete(name)) return;
      logger.info({ dependency: name }, `${name} available again`);
    },
  };
}
