// The load generator, in a process of its own so that it does not share an event loop with the
// server it measures. Receives one job over IPC and answers with autocannon's result.
import autocannon from 'autocannon';

export interface LoadJob {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  durationSeconds: number;
}

export interface LoadResult {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

process.once('message', async (job: LoadJob) => {
  const result = await autocannon({
    url: job.url,
    headers: job.headers ?? {},
    connections: job.connections,
    duration: job.durationSeconds,
    pipelining: 1,
  });
  const answer: LoadResult = {
    rps: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
  process.send?.(answer, () => process.exit(0));
});
