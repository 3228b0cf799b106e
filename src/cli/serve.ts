import type { Command } from 'commander';
import { buildApp } from '../app.ts';
import { migrate } from '../db/migrate.ts';
import { createMetricsServer } from '../http/metrics.ts';
import { closeWithin } from '../http/server.ts';
import { seedDemo } from '../modules/demo/seed.ts';
import { schedulerFor } from '../modules/tasks/scheduler.ts';
import type { Runner } from './runner.ts';
import { untilSignal } from './worker.ts';

export function serveCommands(program: Command, run: Runner): void {
  program
    .command('serve')
    .description('Run the API (and, unless --no-worker, the background worker) in this process')
    .option('--no-worker', 'serve the API only; run `academy worker` elsewhere')
    .option('--demo', 'on an empty database, fill in demo data and print a demo token')
    .action((options) =>
      run(
        async ({ platform, out }) => {
          // Listen for the stop signal before anything starts, so an early SIGTERM is a clean stop too.
          const stop = untilSignal();
          const { config, logger } = platform;
          const applied = await migrate(platform.database);
          if (applied.applied.length) logger.info({ migrations: applied.applied }, 'database migrated');
          if (options.demo) {
            const demo = await seedDemo(platform);
            if (demo.token) {
              out.info(`Demo data loaded. Demo token (all scopes; shown once, also saved to ${demo.tokenFile}):\n\n  ${demo.token}\n`);
            } else if (demo.savedToken) {
              out.info(`Demo token (from ${demo.tokenFile}):\n\n  ${demo.savedToken}\n`);
            } else if (demo.savedTokenInvalid) {
              out.info(
                `The demo token in ${demo.tokenFile} was revoked or has expired; create one with: npx academy tokens create --name me --scopes '*'`,
              );
            } else if (demo.refused) {
              out.info(
                'This database already holds data of its own: demo data was not loaded. Create a token with `academy tokens create`.',
              );
            }
          }
          const app = await buildApp(platform, { logRequests: config.logLevel === 'debug' || config.logLevel === 'trace' });
          const address = await app.http.listen({ port: config.port, host: config.host });
          out.info(`Academy API listening on ${address} (database: ${platform.database.dialect}; docs: ${address}/docs)`);
          out.info(`Try: curl -H "Authorization: Bearer <token>" ${address}/api/v1/organization`);
          const metricsServer = config.metricsPort === null ? null : await createMetricsServer(app.metrics, config);
          if (metricsServer) {
            const metricsAddress = await metricsServer.listen({ port: config.metricsPort as number, host: config.host });
            out.info(`Metrics on ${metricsAddress}/metrics`);
          }
          const worker = options.worker ? platform.createWorker() : null;
          if (worker) {
            await worker.start();
            out.info(`Academy worker ${worker.id} started (concurrency ${config.workerConcurrency})`);
          }
          // The cron scheduler runs wherever a worker runs.
          const scheduler = worker ? schedulerFor(platform) : null;
          scheduler?.start();
          const signal = await stop;
          logger.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down: finishing in-flight requests');
          await Promise.all([
            closeWithin(app.http, config.shutdownGraceMs),
            metricsServer && closeWithin(metricsServer, config.shutdownGraceMs),
          ]);
          await scheduler?.stop();
          // After the API: requests that were in flight may still have enqueued jobs worth running now.
          await worker?.stop(config.shutdownGraceMs);
        },
        { migrate: false, server: true },
      ),
    );

  program
    .command('migrate')
    .description('Apply pending database migrations')
    .action(() =>
      run(
        async ({ platform, out }) => {
          const result = await migrate(platform.database);
          out.result(result, result.applied.length ? `Applied: ${result.applied.join(', ')}` : 'The database is up to date.');
        },
        { migrate: false },
      ),
    );

  program
    .command('seed')
    .description('Fill an empty database with demo data')
    .option('--demo', 'load the demo data set (required)')
    .action((options) =>
      run(async ({ platform, out }) => {
        if (!options.demo) throw new Error('Say which data set to load: academy seed --demo');
        const demo = await seedDemo(platform);
        if (demo.refused) throw new Error('This database already holds data of its own; demo data is only loaded into an empty database.');
        const loaded = demo.catalogue
          ? ` ${demo.catalogue.courses} courses, ${demo.catalogue.sessions} sessions, ${demo.catalogue.students} students, ` +
            `${demo.catalogue.enrolments} enrolments, ${demo.catalogue.certificates} certificates.`
          : '';
        out.result(
          { seeded: demo.seeded, token: demo.token ?? null, ...(demo.catalogue ? { catalogue: demo.catalogue } : {}) },
          demo.seeded ? `Demo data loaded:${loaded}${demo.token ? ` Demo token: ${demo.token}` : ''}` : 'Demo data was already loaded.',
        );
      }),
    );
}
