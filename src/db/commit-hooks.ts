import { AsyncLocalStorage } from 'node:async_hooks';
import type { DatabaseConnection, Dialect, Driver } from 'kysely';

/**
 * Work that a piece of code asks to be done in every transaction it commits: `before` runs on the
 * transaction's own connection just before its commit, so that what it writes is committed with the
 * transaction's changes or not at all; `after` is told once the commit has succeeded. An HTTP
 * request with an `Idempotency-Key` records this way, in the same commit as its changes, that they
 * were made (src/http/idempotency.ts).
 */
export interface CommitHook {
  before(connection: DatabaseConnection): Promise<void>;
  after(): void;
}

const scope = new AsyncLocalStorage<CommitHook>();

/** Runs `work` so that every transaction committed within it (and the async work it starts) runs `hook`. */
export function withCommitHook<T>(hook: CommitHook, work: () => T): T {
  return scope.run(hook, work);
}

/** A driver whose commits run the hook of the code that commits, if it has one. */
function hookedDriver(driver: Driver): Driver {
  return {
    init: (options) => driver.init(options),
    acquireConnection: (options) => driver.acquireConnection(options),
    beginTransaction: (connection, settings) => driver.beginTransaction(connection, settings),
    async commitTransaction(connection) {
      const hook = scope.getStore();
      if (hook) await hook.before(connection);
      await driver.commitTransaction(connection);
      hook?.after();
    },
    rollbackTransaction: (connection) => driver.rollbackTransaction(connection),
    ...(driver.savepoint && { savepoint: driver.savepoint.bind(driver) }),
    ...(driver.rollbackToSavepoint && { rollbackToSavepoint: driver.rollbackToSavepoint.bind(driver) }),
    ...(driver.releaseSavepoint && { releaseSavepoint: driver.releaseSavepoint.bind(driver) }),
    releaseConnection: (connection, options) => driver.releaseConnection(connection, options),
    destroy: (options) => driver.destroy(options),
  };
}

/** `dialect` with commit hooks (withCommitHook): the application's databases are opened through it. */
export function hookedDialect(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => hookedDriver(dialect.createDriver()),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
