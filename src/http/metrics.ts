import { createRequire } from 'node:module';
import { BlockList, isIPv4 } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { Config } from '../config.ts';
import { ping } from '../db/database.ts';
import { DatabaseUnavailableError } from '../platform/errors.ts';
import type { Platform } from '../platform/platform.ts';
import { sendError } from './errors.ts';
import { addPlatformMetrics, type MetricsContributor } from './platform-metrics.ts';
import { serverOptions } from './server.ts';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

interface Counted {
  labels: { method: string; route: string; status: string };
  value: number;
}

interface Timed {
  labels: { method: string; route: string };
  buckets: number[];
  sum: number;
  count: number;
}

/** The map kept under `key` in `outer`, made on first use. */
function mapIn<K, K2, V>(outer: Map<K, Map<K2, V>>, key: K): Map<K2, V> {
  let inner = outer.get(key);
  if (!inner) {
    inner = new Map();
    outer.set(key, inner);
  }
  return inner;
}

/**
 * Request counts and latencies, kept in plain arrays and turned into Prometheus samples only when
 * scraped. prom-client's own Counter and Histogram validate and hash their labels on every
 * observation, which cost about a tenth of a small request's time; the registry still formats these.
 */
function createRequestStats(registry: Registry) {
  // By route, method and status as they come: no key text is built and hashed per request.
  const counts = new Map<string, Map<string, Map<number, Counted>>>();
  const latencies = new Map<string, Map<string, Timed>>();
  const allCounts = () => [...counts.values()].flatMap((byMethod) => [...byMethod.values()].flatMap((byStatus) => [...byStatus.values()]));
  const allLatencies = () => [...latencies.values()].flatMap((byMethod) => [...byMethod.values()]);

  registry.registerMetric({
    name: 'academy_http_requests_total',
    help: 'HTTP requests by method, route and status.',
    type: 'counter',
    get: async () => ({
      name: 'academy_http_requests_total',
      help: 'HTTP requests by method, route and status.',
      type: 'counter',
      aggregator: 'sum',
      values: allCounts().map(({ labels, value }) => ({ labels, value })),
    }),
    reset: () => counts.clear(),
  } as never);

  registry.registerMetric({
    name: 'academy_http_request_duration_seconds',
    help: 'HTTP request latency by method and route.',
    type: 'histogram',
    get: async () => {
      const values: MetricValue[] = [];
      for (const { labels, buckets, sum, count } of allLatencies()) {
        let cumulative = 0;
        LATENCY_BUCKETS.forEach((le, i) => {
          cumulative += buckets[i] ?? 0;
          values.push({ labels: { ...labels, le }, value: cumulative, metricName: 'academy_http_request_duration_seconds_bucket' });
        });
        values.push({ labels: { ...labels, le: '+Inf' }, value: count, metricName: 'academy_http_request_duration_seconds_bucket' });
        values.push({ labels, value: sum, metricName: 'academy_http_request_duration_seconds_sum' });
        values.push({ labels, value: count, metricName: 'academy_http_request_duration_seconds_count' });
      }
      return {
        name: 'academy_http_request_duration_seconds',
        help: 'HTTP request latency by method and route.',
        type: 'histogram',
        aggregator: 'sum',
        values,
      };
    },
    reset: () => latencies.clear(),
  } as never);

  return function record(method: string, route: string, status: number, seconds: number): void {
    const countsOfMethod = mapIn(mapIn(counts, route), method);
    const counted = countsOfMethod.get(status);
    if (counted) counted.value++;
    else countsOfMethod.set(status, { labels: { method, route, status: String(status) }, value: 1 });

    const latenciesOfRoute = mapIn(latencies, route);
    let timed = latenciesOfRoute.get(method);
    if (!timed) {
      timed = { labels: { method, route }, buckets: new Array(LATENCY_BUCKETS.length).fill(0), sum: 0, count: 0 };
      latenciesOfRoute.set(method, timed);
    }
    for (let i = 0; i < LATENCY_BUCKETS.length; i++) {
      if (seconds <= (LATENCY_BUCKETS[i] as number)) {
        timed.buckets[i] = (timed.buckets[i] ?? 0) + 1;
        break;
      }
    }
    timed.sum += seconds;
    timed.count++;
  };
}

const load = createRequire(import.meta.url);

/**
 * prom-client's default metrics of the process (CPU, memory, heap, event loop, handles), with its
 * histogram of garbage collections (`nodejs_gc_duration_seconds`) only when `gc` is true. That one
 * observes every collection through a `PerformanceObserver`: Node.js then makes a performance entry
 * and calls JavaScript after each of the hundred or more young-generation collections a second of
 * a busy API process, which cost it about 7% of its CPU per request (ADR 0018). prom-client collects its
 * defaults all or none, so the others are registered one by one, as `collectDefaultMetrics` does,
 * from the list it publishes.
 */
export function collectProcessMetrics(registry: Registry, gc: boolean): void {
  if (gc) {
    collectDefaultMetrics({ register: registry });
    return;
  }
  const config = { register: registry, eventLoopMonitoringPrecision: 10 };
  for (const name of collectDefaultMetrics.metricsList) {
    if (name === 'gc') continue;
    (load(`prom-client/lib/metrics/${name}.js`) as (registry: Registry, config: object) => void)(registry, config);
  }
}

/** Prometheus metrics of one app: the process's own, requests by route and status, and latency. */
export function createMetrics(options: { gc: boolean }) {
  const registry = new Registry();
  collectProcessMetrics(registry, options.gc);
  return { registry, record: createRequestStats(registry) };
}

export type Metrics = ReturnType<typeof createMetrics>;

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Whether a client address is this machine's own: 127.0.0.0/8 or ::1 (also as IPv4-mapped IPv6). */
export function isLoopback(address: string): boolean {
  return loopback.check(address, isIPv4(address) ? 'ipv4' : 'ipv6');
}

export function registerMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.record(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

/**
 * The metrics endpoint on a listener of its own (ACADEMY_METRICS_PORT), so that Prometheus can
 * scrape it on an internal port while the API port stays public.
 */
export async function createMetricsServer(metrics: Metrics, config: Config): Promise<FastifyInstance> {
  const server = Fastify({ ...serverOptions(config), logger: false });
  server.get('/metrics', async (_request, reply) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()));
  await server.ready();
  return server;
}

/**
 * What a worker process serves on ACADEMY_METRICS_PORT: liveness, readiness (the database answers)
 * and Prometheus metrics of the process, its jobs and the modules (their `metrics`).
 */
export async function createWorkerProbeServer(
  platform: Platform,
  worker: { readonly running: number },
  modules: readonly MetricsContributor[],
): Promise<FastifyInstance> {
  const registry = new Registry();
  collectProcessMetrics(registry, platform.config.gcMetrics);
  new Gauge({
    name: 'academy_worker_running_jobs',
    help: 'Jobs this worker is running now.',
    registers: [registry],
    collect() {
      this.set(worker.running);
    },
  });
  addPlatformMetrics(registry, platform, modules);
  const server = Fastify({ ...serverOptions(platform.config), logger: false });
  server.get('/livez', async () => ({ status: 'ok' }));
  server.get('/readyz', async (_request, reply) => {
    try {
      await ping(platform.database);
      return { status: 'ok' };
    } catch {
      return sendError(reply, new DatabaseUnavailableError());
    }
  });
  server.get('/metrics', async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()));
  await server.ready();
  return server;
}
