import Fastify, { type FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { ping } from '../db/database.ts';
import type { Platform } from '../platform/platform.ts';

/** Prometheus metrics of one app: requests by route and status, and a latency histogram. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'academy_http_requests_total',
    help: 'HTTP requests by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'academy_http_request_duration_seconds',
    help: 'HTTP request latency by method and route.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  // Labelled children are looked up once per label set, not hashed from an object on every request.
  const children = new Map<string, { count: () => void; time: (seconds: number) => void }>();
  function record(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    let child = children.get(key);
    if (!child) {
      const counter = requests.labels(method, route, String(status));
      const histogram = latency.labels(method, route);
      child = { count: () => counter.inc(), time: (s) => histogram.observe(s) };
      children.set(key, child);
    }
    child.count();
    child.time(seconds);
  }
  return { registry, requests, latency, record };
}

export type Metrics = ReturnType<typeof createMetrics>;

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
export async function createMetricsServer(metrics: Metrics): Promise<FastifyInstance> {
  const server = Fastify({ logger: false });
  server.get('/metrics', async (_request, reply) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()));
  await server.ready();
  return server;
}

/**
 * What a worker process serves on ACADEMY_METRICS_PORT: liveness, readiness (the database answers)
 * and Prometheus metrics of the process and its jobs.
 */
export async function createWorkerProbeServer(platform: Platform, worker: { readonly running: number }): Promise<FastifyInstance> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'academy_worker_running_jobs',
    help: 'Jobs this worker is running now.',
    registers: [registry],
    collect() {
      this.set(worker.running);
    },
  });
  const server = Fastify({ logger: false });
  server.get('/livez', async () => ({ status: 'ok' }));
  server.get('/readyz', async (_request, reply) => {
    try {
      await ping(platform.database.db);
      return { status: 'ok' };
    } catch {
      return reply.code(503).send({ status: 'unavailable', message: 'The database is not reachable.' });
    }
  });
  server.get('/metrics', async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()));
  await server.ready();
  return server;
}
