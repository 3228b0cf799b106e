import path from 'node:path';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type RunningProcess, startNode, startServer } from '../support/process.ts';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/academy.js');

const everything = new Set<RunningProcess>();
after(async () => {
  for (const p of everything) {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  }
  await Promise.all([...everything].map((p) => p.exited));
});

/** One role of the cluster (an API or a worker process) that can be killed and started again. */
export interface Member {
  name: string;
  /** The running process; `null` between a kill and the restart. */
  current: RunningProcess | null;
  /**
   * The API's base URL (`null` for a worker). After a kill it still names the dead process, as a load
   * balancer that has not noticed yet would: its clients get connection errors until the restart.
   */
  url: string | null;
  /** How many processes this role has had (1 + restarts). */
  generations: number;
  start(): Promise<void>;
  /** SIGKILL: no shutdown, no finished requests, no released jobs. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<number | string | undefined>;
}

function member(name: string, launch: () => Promise<{ process: RunningProcess; url: string | null }>): Member {
  const self: Member = {
    name,
    current: null,
    url: null,
    generations: 0,
    async start() {
      const started = await launch();
      everything.add(started.process);
      self.current = started.process;
      self.url = started.url;
      self.generations += 1;
    },
    async kill() {
      const running = self.current;
      self.current = null;
      if (!running) return;
      running.child.kill('SIGKILL');
      await running.exited;
    },
    async stop() {
      const running = self.current;
      self.current = null;
      self.url = null;
      if (!running) return undefined;
      running.child.kill('SIGTERM');
      return running.exited;
    },
  };
  return self;
}

/** `academy serve --no-worker`: an API process on an ephemeral port. */
export function apiMember(name: string, env: Record<string, string>): Member {
  return member(name, async () => {
    const server = await startServer(['--no-worker'], env, 120_000);
    return { process: server, url: server.url };
  });
}

/** `academy worker`: a job worker (and cron scheduler) process. */
export function workerMember(name: string, env: Record<string, string>): Member {
  return member(name, async () => {
    const worker = startNode([bin, 'worker'], { LOG_LEVEL: 'warn', ...env });
    everything.add(worker);
    await worker.waitFor(/worker \S+ started/i, 120_000);
    return { process: worker, url: null };
  });
}
