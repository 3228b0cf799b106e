import type { Command } from 'commander';
import { positiveInt } from '../../cli/ids.ts';
import type { Runner } from '../../cli/runner.ts';
import { createWorkerProbeServer } from '../../http/metrics.ts';
import { closeWithin } from '../../http/server.ts';
import type { AcademyModule } from '../../modules/manifest.ts';
import { schedulerFor } from '../../modules/tasks/scheduler.ts';
import { checkModuleConfig, modules } from '../modules.ts';

/** Resolves when the process is asked to stop (SIGINT/SIGTERM). */
export function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}

export function workerCommands(program: Command, run: Runner): void {
  program
    .command('worker')
    .description('Run background jobs (webhook deliveries, integrations, scheduled tasks) until SIGINT/SIGTERM')
    .option('--concurrency <n>', 'jobs run at once (default: ACADEMY_WORKER_CONCURRENCY)', positiveInt('--concurrency', 64))
    .option(
      '--grace-seconds <s>',
      'on shutdown, how long running jobs may take to finish before they are handed back (default: ACADEMY_SHUTDOWN_GRACE_SECONDS)',
      positiveInt('--grace-seconds', 3600),
    )
    .action((options) =>
      run(
        async ({ platform, services, out }) => {
          // Listen for the stop signal before anything starts, so an early SIGTERM is a clean stop too.
          const stop = untilSignal();
          checkModuleConfig({ platform, services });
          const worker = platform.createWorker(options.concurrency ? { concurrency: options.concurrency } : {});
          const concurrency = options.concurrency ?? platform.config.workerConcurrency;
          await worker.start();
          // Every worker process also runs the cron scheduler; several of them queue each due run once.
          const scheduler = schedulerFor(platform);
          scheduler.start();
          const { metricsPort, host } = platform.config;
          const probes = metricsPort === null ? null : await createWorkerProbeServer(platform, worker, modules as readonly AcademyModule[]);
          const probesAt = probes ? await probes.listen({ port: metricsPort as number, host }) : null;
          // On stderr, as `serve` says where it listens: stdout carries the process's JSON log lines only.
          out.banner(
            `Academy worker ${worker.id} started (concurrency ${concurrency}, database: ${platform.database.dialect})` +
              (probesAt ? `; /livez, /readyz and /metrics on ${probesAt}` : ''),
          );
          const signal = await stop;
          // A second signal while draining stops at once; the unfinished jobs run again after their lease.
          const force = () => process.exit(130);
          process.once('SIGINT', force);
          process.once('SIGTERM', force);
          out.banner(`${signal}: stopping; waiting for ${worker.running} running job(s) to finish`);
          const graceMs = options.graceSeconds ? options.graceSeconds * 1000 : platform.config.shutdownGraceMs;
          if (probes) await closeWithin(probes, graceMs);
          await scheduler.stop();
          await worker.stop(graceMs);
          process.off('SIGINT', force);
          process.off('SIGTERM', force);
        },
        { server: true },
      ),
    );
}
