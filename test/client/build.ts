import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The TypeScript client's package directory. */
export const clientDir = path.join(root, 'clients/typescript');
const lockDir = path.join(root, 'node_modules/.cache/academy-client-build.lock');

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end, with stdout and stderr apart. */
export function run(command: string, args: string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}) {
  const child = spawn(command, args, {
    cwd: options.cwd ?? root,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const timeoutMs = options.timeoutMs ?? 60_000;
  return new Promise<Finished>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not finish within ${timeoutMs} ms; output:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the lock's holder is gone: its process ended (killed mid-test), or it never wrote its pid. */
function stale(): boolean {
  try {
    return !alive(Number(readFileSync(path.join(lockDir, 'pid'), 'utf8')));
  } catch {
    try {
      return Date.now() - statSync(lockDir).mtimeMs > 10_000;
    } catch {
      return false;
    }
  }
}

async function lock(timeoutMs: number): Promise<void> {
  mkdirSync(path.dirname(lockDir), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (stale()) rmSync(lockDir, { recursive: true, force: true });
    else if (Date.now() > deadline) throw new Error(`the client's build lock (${lockDir}) was held for over ${timeoutMs} ms`);
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Builds the client (`npm run build` in its directory: dist/*.js and dist/*.d.ts) and runs `use`
 * while no other test process builds it. The suites of both databases run at once, and a build
 * empties dist/ first, so a build beside a running example or `npm pack` would pull files from
 * under it.
 */
export async function withBuiltClient<T>(use: () => Promise<T>): Promise<T> {
  await lock(180_000);
  try {
    const built = await run('npm', ['run', 'build'], { cwd: clientDir, timeoutMs: 120_000 });
    if (built.code !== 0) throw new Error(`npm run build failed (${built.code}):\n${built.stdout}\n${built.stderr}`);
    return await use();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}
