import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';

export interface RunningProcess {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or signal name) when the process ends. */
  exited: Promise<number | string>;
  /** Resolves once `pattern` appears in the output; rejects if the process ends or `timeoutMs` passes first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
}

// Every process a test file starts is killed when its tests end, even after a failed assertion, and
// when the test process itself exits (process.exit, an uncaught error): none outlives its file. A suite
// stopped past TEST_SUITE_TIMEOUT is killed with its whole process group, these children with it.
const started = new Set<ChildProcess>();
const killStarted = () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
};
after(killStarted);
process.once('exit', killStarted);

/** Starts a Node.js script (the same Node.js as the test) with extra environment variables. */
export function startNode(args: string[], env: Record<string, string>): RunningProcess {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  let text = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    text += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = once(child, 'exit').then(([code, signal]) => (code ?? signal) as number | string);
  return {
    child,
    output: () => text,
    exited,
    waitFor(pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(text);
          if (match) finish(() => resolve(match));
        };
        const timer = setTimeout(() => finish(() => reject(new Error(`timed out waiting for ${pattern}; output:\n${text}`))), timeoutMs);
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          settle();
        };
        listeners.add(check);
        exited.then((code) => finish(() => reject(new Error(`process exited (${code}) before ${pattern}; output:\n${text}`))));
        check();
      });
    },
  };
}

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/academy.js');

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `academy <args>` (the package bin) to completion, with stdout and stderr apart. Given 90 s, as
 * a server is to start (`startServer`): under CI's two suites at once a command once took more than
 * 30 s to load and run, where it takes 2 s on a quiet machine.
 */
export function runAcademy(args: string[], env: Record<string, string>, timeoutMs = 90_000): Promise<Finished> {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`academy ${args.join(' ')} did not finish within ${timeoutMs} ms; stderr:\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface AcademyServer extends RunningProcess {
  /** The base URL the server printed, e.g. `http://127.0.0.1:41234`. */
  url: string;
}

/**
 * Starts `academy serve <args>` on an ephemeral loopback port and resolves once it listens. Beside
 * CI's two suites on two cores a start has taken more than 30 s; 90 s stays inside a test's 120 s.
 */
export async function startServer(args: string[], env: Record<string, string>, timeoutMs = 90_000): Promise<AcademyServer> {
  const server = startNode([bin, 'serve', ...args], { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env });
  const match = await server.waitFor(/listening on (https?:\/\/[^\s]+)/, timeoutMs);
  return { ...server, url: match[1] as string };
}
