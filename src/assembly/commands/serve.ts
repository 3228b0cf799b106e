import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Output } from '../../cli/output.ts';
import type { Runner } from '../../cli/runner.ts';
import { publicUrlWarning } from '../../config.ts';
import { migrate } from '../../db/migrate.ts';
import { createMetricsServer } from '../../http/metrics.ts';
import { closeWithin } from '../../http/server.ts';
import { MAX_SCALE, PER_SCALE, seedScale } from '../../modules/demo/scale.ts';
import { seedDemo } from '../../modules/demo/seed.ts';
import { schedulerFor } from '../../modules/tasks/scheduler.ts';
import type { Platform } from '../../platform/platform.ts';
import { buildApp } from '../app.ts';
import { checkModuleConfig } from '../modules.ts';
import { sealStoredSecrets } from './secrets.ts';
import { untilSignal } from './worker.ts';

/** Waits until the Redis connection is ready, at most `ms`; after that the server starts anyway (limits counted locally, and said so). */
async function redisReady(redis: Redis, ms: number, logger: Logger): Promise<void> {
  if (redis.status === 'ready') return;
  const ready = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => finish(false), ms);
    const finish = (value: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(value);
    };
    const onReady = () => finish(true);
    redis.on('ready', onReady);
  });
  if (!ready) logger.warn({ waitedMs: ms }, 'Redis is not reachable yet: rate limits start counted by this process alone');
}

export function serveCommands(program: Command, run: Runner): void {
  program
    .command('serve')
    .description('Run the API (and, unless --no-worker, the background worker) in this process')
    .option('--no-worker', 'serve the API only; run `academy worker` elsewhere')
    .option('--demo', 'on an empty database, fill in demo data and print a demo token')
    .action((options) =>
      run(
        async ({ platform, services, out }) => {
          // Listen for the stop signal before anything starts, so an early SIGTERM is a clean stop too.
          const stop = untilSignal();
          checkModuleConfig({ platform, services });
          const { config, logger } = platform;
          const applied = await migrate(platform.database);
          if (applied.applied.length) logger.info({ migrations: applied.applied }, 'database migrated');
          await sealStoredSecrets(platform);
          let demoTokenFile: string | null = null;
          if (options.demo) {
            const demo = await seedDemo(platform, services);
            demoTokenFile = demo.tokenFile;
            if (demo.token) {
              out.banner(`Demo data loaded. Demo token (all scopes; shown once, also saved to ${demo.tokenFile}):\n\n  ${demo.token}\n`);
              if (demo.adminLink && config.console) {
                out.banner(
                  `Console: sign in as the demo administrator (admin@northwind-academy.example) by choosing a password at this one-time link (7 days; shown once):\n\n  ${demo.adminLink}\n`,
                );
              }
            } else if (demo.savedToken) {
              out.banner(`Demo token (from ${demo.tokenFile}):\n\n  ${demo.savedToken}\n`);
            } else if (demo.savedTokenInvalid) {
              out.banner(
                `The demo token in ${demo.tokenFile} was revoked or has expired; create one with: npx academy tokens create --name me --scopes '*'`,
              );
            } else if (demo.refused) {
              out.banner(
                'This database already holds data of its own: demo data was not loaded. Create a token with `academy tokens create`.',
              );
            }
          }
          // Rate limits shared through Redis must not start counted locally: wait (a little) for it.
          if (platform.redis) await redisReady(platform.redis, 5000, logger);
          const app = await buildApp({ platform, services }, { logRequests: config.accessLog, warm: true });
          // Fastify hands these to net.Server#listen, whose `reusePort` its own types do not list yet.
          const listenOptions = { port: config.port, host: config.host, reusePort: config.reusePort };
          const address = await app.http.listen(listenOptions);
          out.banner(`Academy API listening on ${address} (database: ${platform.database.dialect}; docs: ${address}/docs)`);
          const linksWarning = publicUrlWarning(config);
          if (linksWarning) {
            logger.warn(linksWarning);
            out.banner(`Warning: ${linksWarning}`);
          }
          const tokenFile =
            demoTokenFile && existsSync(demoTokenFile) ? path.relative(process.cwd(), demoTokenFile) || demoTokenFile : null;
          out.banner(
            tokenFile
              ? `Try: curl -H "Authorization: Bearer $(cat ${tokenFile})" ${address}/api/v1/organization`
              : `Try: curl -H "Authorization: Bearer $TOKEN" ${address}/api/v1/organization   (a token: academy tokens create --name me --scopes '*')`,
          );
          const metricsServer = config.metricsPort === null ? null : await createMetricsServer(app.metrics, config);
          if (metricsServer) {
            const metricsAddress = await metricsServer.listen({ port: config.metricsPort as number, host: config.host });
            out.banner(`Metrics on ${metricsAddress}/metrics`);
          }
          const worker = options.worker ? platform.createWorker() : null;
          if (worker) {
            await worker.start();
            out.banner(`Academy worker ${worker.id} started (concurrency ${config.workerConcurrency})`);
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
          await sealStoredSecrets(platform);
          out.result(result, result.applied.length ? `Applied: ${result.applied.join(', ')}` : 'The database is up to date.');
        },
        { migrate: false },
      ),
    );

  program
    .command('seed')
    .description('Fill an empty database: the demo academy (--demo), or a large data set for benchmarks (--scale N)')
    .option('--demo', 'load the demo academy, the organization and a demo token')
    .option(
      '--scale <n>',
      `load about N × ${PER_SCALE.students} students, N × ${PER_SCALE.staff} staff users and N × ${PER_SCALE.enrolments} enrolments (N from 0.001 to ${MAX_SCALE})`,
    )
    .action((options: { demo?: boolean; scale?: string }) =>
      run(async ({ platform, services, out }) => {
        if (options.demo && options.scale !== undefined) throw new Error('Load one data set at a time: --demo or --scale N.');
        if (options.scale !== undefined) return seedScaleCommand(platform, out, options.scale);
        if (!options.demo) throw new Error('Say which data set to load: academy seed --demo, or academy seed --scale N');
        const demo = await seedDemo(platform, services);
        if (demo.refused) throw new Error('This database already holds data of its own; demo data is only loaded into an empty database.');
        const loaded = demo.catalogue
          ? ` ${demo.catalogue.courses} courses, ${demo.catalogue.sessions} sessions, ${demo.catalogue.students} students, ` +
            `${demo.catalogue.enrolments} enrolments, ${demo.catalogue.certificates} certificates.`
          : '';
        out.result(
          {
            seeded: demo.seeded,
            token: demo.token ?? null,
            admin_link: demo.adminLink ?? null,
            ...(demo.catalogue ? { catalogue: demo.catalogue } : {}),
          },
          demo.seeded
            ? `Demo data loaded:${loaded}${demo.token ? ` Demo token: ${demo.token}` : ''}${demo.adminLink ? ` Demo administrator's one-time sign-in link: ${demo.adminLink}` : ''}`
            : 'Demo data was already loaded.',
        );
      }),
    );
}

async function seedScaleCommand(platform: Platform, out: Output, text: string): Promise<void> {
  const scale = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !(scale >= 0.001 && scale <= MAX_SCALE)) {
    throw new Error(`--scale must be a number from 0.001 to ${MAX_SCALE}, e.g. --scale 1 (about ${PER_SCALE.students} students).`);
  }
  const started = performance.now();
  let shown = -1;
  const summary = await seedScale(platform, scale, {
    onProgress: (progress) => {
      const { percent } = progress;
      // A line every 5%, so that a log file gets a readable bar too; then one per step after the rows.
      if (percent < shown + 5 && percent < 100 && !('step' in progress)) return;
      shown = percent;
      const bar = '#'.repeat(Math.floor(percent / 5)).padEnd(20, '.');
      const seconds = ((performance.now() - started) / 1000).toFixed(0);
      const what =
        'step' in progress
          ? `${progress.step} (step ${progress.done + 1} of ${progress.steps})`
          : `${progress.table} ${progress.written}/${progress.total}`;
      out.progress(`[${bar}] ${String(percent).padStart(3)}%  ${what}  ${seconds} s`);
    },
  });
  out.result(
    summary,
    `Loaded scale ${scale} in ${summary.seconds} s: ${summary.students} students, ${summary.courses} courses, ${summary.sessions} sessions, ` +
      `${summary.applications} applications, ${summary.enrolments} enrolments (${summary.confirmed} confirmed, ${summary.waitlisted} waitlisted, ` +
      `${summary.cancelled} cancelled), ${summary.certificates} certificates (${summary.revoked} revoked).`,
  );
}
