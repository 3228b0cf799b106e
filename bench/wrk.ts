// wrk, the C load generator (https://github.com/wg/wrk): far lighter than autocannon, so on a small
// machine it leaves more of the CPU to the server it measures. Runs `wrk --latency` and reads its
// report: requests per second, the 50th and 99th latency percentiles, and the failures.
import { execFile, execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LoadJob, LoadResult } from './load.ts';

/** Where the wrk binary is (BENCH_WRK, else `wrk` on the PATH). */
export const WRK = process.env.BENCH_WRK ?? 'wrk';

/** Whether wrk can be run here. */
export function wrkAvailable(): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(WRK, ['--version'], (error, stdout, stderr) => resolve(!error || /wrk \S+/.test(`${stdout}${stderr}`)));
  });
}

/** A wrk duration such as `812.34us`, `1.20ms` or `2.01s`, in milliseconds. */
function milliseconds(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  if (!match) throw new Error(`wrk reported a latency this benchmark cannot read: ${text}`);
  const value = Number(match[1]);
  return { us: value / 1000, ms: value, s: value * 1000, m: value * 60_000 }[match[2] as 'us' | 'ms' | 's' | 'm'];
}

/** wrk's report read: what it does not print is a failure, never a zero (a crashed run is no result). */
export function parseWrk(report: string): LoadResult {
  const number = (pattern: RegExp, required = false) => {
    const match = pattern.exec(report);
    if (!match && required) throw new Error(`wrk's report has no ${pattern.source}:\n${report}`);
    return match ? Number(match[1]) : 0;
  };
  const percentile = (p: number) => {
    const match = new RegExp(`^\\s*${p}%\\s+(\\S+)`, 'm').exec(report);
    if (!match) throw new Error(`wrk printed no ${p}th percentile (was --latency given?):\n${report}`);
    return milliseconds(match[1] as string);
  };
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(report);
  return {
    rps: number(/Requests\/sec:\s+([\d.]+)/, true),
    p50Ms: percentile(50),
    p99Ms: percentile(99),
    total: number(/(\d+) requests in/, true),
    non2xx: number(/Non-2xx or 3xx responses: (\d+)/),
    errors: errors ? Number(errors[1]) + Number(errors[2]) + Number(errors[3]) : 0,
    timeouts: errors ? Number(errors[4]) : 0,
  };
}

/** One wrk run of `job` (one thread by default: BENCH_WRK_THREADS). */
export function runWrk(job: LoadJob, threads = Number(process.env.BENCH_WRK_THREADS ?? 1)): Promise<LoadResult> {
  const args = [`-t${threads}`, `-c${job.connections}`, `-d${job.durationSeconds}s`, '--latency', '--timeout', '10s'];
  for (const [name, value] of Object.entries(job.headers ?? {})) args.push('-H', `${name}: ${value}`);
  args.push(job.url);
  return new Promise((resolve, reject) => {
    execFile(WRK, args, { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`wrk failed: ${stderr || error.message}`));
      else {
        try {
          resolve(parseWrk(stdout));
        } catch (failure) {
          reject(failure);
        }
      }
    });
  });
}

/**
 * Installs a Debian package when this runs as root on Debian or Ubuntu (`apt-get install`, and again
 * after an `apt-get update` when that fails); whether it went well.
 */
export function installFromDebian(pkg: string, log: (text: string) => void): boolean {
  if (process.getuid?.() !== 0) return false;
  log(`${pkg} is not installed: installing it (apt-get install ${pkg})`);
  const install = () =>
    execFileSync('apt-get', ['install', '-y', '-q', pkg], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  try {
    install();
    return true;
  } catch {
    try {
      execFileSync('apt-get', ['update', '-q'], { stdio: 'ignore' });
      install();
      return true;
    } catch {
      log(`installing ${pkg} failed`);
      return false;
    }
  }
}

/**
 * Whether wrk can be run here, after installing it from the distribution's packages when it is
 * missing (only the `wrk` on the PATH: a BENCH_WRK path that is missing stays missing).
 */
export async function ensureWrk(log: (text: string) => void): Promise<boolean> {
  if (await wrkAvailable()) return true;
  return WRK === 'wrk' && installFromDebian('wrk', log) && (await wrkAvailable());
}

/**
 * The load generators to use (BENCH_TOOL: autocannon, wrk or both, the default). A missing wrk is
 * installed from the distribution's packages when this runs as root on Debian or Ubuntu.
 */
export async function loadTools(log: (text: string) => void): Promise<('autocannon' | 'wrk')[]> {
  const asked = process.env.BENCH_TOOL ?? 'both';
  if (!['autocannon', 'wrk', 'both'].includes(asked)) throw new Error('BENCH_TOOL must be autocannon, wrk or both');
  const wrk = asked === 'autocannon' ? await wrkAvailable() : await ensureWrk(log);
  if (asked === 'wrk' && !wrk) throw new Error('BENCH_TOOL=wrk, but wrk is not installed (apt-get install wrk, or BENCH_WRK=/path/to/wrk)');
  if (asked === 'both' && !wrk) log('wrk is not installed: autocannon only (apt-get install wrk for the C load generator)');
  return asked === 'both' ? (wrk ? ['autocannon', 'wrk'] : ['autocannon']) : [asked as 'autocannon' | 'wrk'];
}

/** The latency and rate of a wrk run over several paths (`runPaths`), with its 95th percentile. */
export interface PathsResult {
  rps: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

/** A wrk script that asks for each path in turn and prints the 50th, 95th and 99th percentiles in ms. */
function pathsScript(paths: readonly string[], headers: Record<string, string>): string {
  const list = paths.map((p) => `  ${JSON.stringify(p)},`).join('\n');
  const set = Object.entries(headers)
    .map(([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`)
    .join('\n');
  return `local paths = {\n${list}\n}
local i = 0
${set}
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT %d %.3f %.3f %.3f %.3f %d %d\\n", summary.requests, summary.duration / 1e6,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000,
    summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
`;
}

/**
 * wrk over `paths` in turn (distinct requests, as users make them, not one URL repeated), on one
 * thread with `connections` connections for `seconds`; the script is written into `directory`.
 */
export function runPaths(
  job: { base: string; paths: readonly string[]; headers: Record<string, string>; connections: number; directory: string },
  seconds: number,
): Promise<PathsResult> {
  const file = path.join(job.directory, 'paths.lua');
  writeFileSync(file, pathsScript(job.paths, job.headers));
  const args = ['-t1', `-c${job.connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', file, job.base];
  return new Promise((resolve, reject) => {
    execFile(WRK, args, { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      const match = /RESULT (\d+) ([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) (\d+) (\d+)/.exec(stdout);
      if (error || !match) return reject(new Error(`wrk failed: ${stderr || error?.message || stdout}`));
      const [, requests, duration, p50, p95, p99, non2xx, errors] = match.map(Number) as number[];
      resolve({
        rps: (requests as number) / (duration as number),
        p50Ms: p50 as number,
        p95Ms: p95 as number,
        p99Ms: p99 as number,
        non2xx: non2xx as number,
        errors: errors as number,
      });
    });
  });
}
