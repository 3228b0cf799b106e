import zlib from 'node:zlib';
import { AjvCompiler } from '@fastify/ajv-compiler';
import fastifyCompress from '@fastify/compress';
import fastifyCors from '@fastify/cors';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { registerAccessControl } from '../http/access.ts';
import { registerServiceContext } from '../http/context.ts';
import { registerConventions, requestId } from '../http/conventions.ts';
import { answerUnroutedEarly, registerErrorHandling, sendError } from '../http/errors.ts';
import { registerIdempotency } from '../http/idempotency.ts';
import { finiteNumbers, registerInputChecks, type Validator } from '../http/input.ts';
import { isRead } from '../http/methods.ts';
import { createMetrics, type Metrics, registerMetrics } from '../http/metrics.ts';
import { addPlatformMetrics } from '../http/platform-metrics.ts';
import { COMPRESSION } from '../http/representations.ts';
import { serverLogger } from '../http/request-logger.ts';
import { ErrorBody } from '../http/schemas.ts';
import { serverOptions } from '../http/server.ts';
import { systemRoutes } from '../http/system-routes.ts';
import type { AcademyModule } from '../modules/manifest.ts';
import { NotFoundError } from '../platform/errors.ts';
import { redactUrl } from '../platform/redact.ts';
import { configureAjv, INPUT_OPTIONS } from '../platform/validation.ts';
import { type Assembly, modules } from './modules.ts';
import { openApiOptions } from './openapi.ts';

const ajvCompilers = AjvCompiler();

/** Response headers a browser script may read when CORS is on (ACADEMY_CORS_ORIGINS). */
export const CORS_EXPOSED_HEADERS = [
  'Link',
  'ETag',
  'Location',
  'Retry-After',
  'RateLimit',
  'RateLimit-Policy',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Request-Id',
  'Idempotent-Replayed',
  'Content-Disposition',
];

/** The reference's own mark, in place of the framework's logo. */
const REFERENCE_LOGO = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="220" height="40" viewBox="0 0 220 40">' +
    '<rect width="40" height="40" rx="8" fill="#1f4e79"/><path d="M11 29 20 9l9 20h-5l-4-9-4 9z" fill="#fff"/>' +
    '<text x="50" y="27" font-family="sans-serif" font-size="20" font-weight="600" fill="#ffffff">Academy API</text></svg>',
);

/**
 * Query strings and paths arrive as text, so their values are coerced to the schema's types (and a
 * number so coerced must be finite); JSON bodies are typed already and are not: `{"name": 123}` or
 * `{"name": null}` is a 422, not "123" or "".
 */
/** A request's target as the access log writes it: its secrets redacted, at most 200 characters. */
function loggedUrl(url: string): string {
  const redacted = redactUrl(url);
  return redacted.length > 200 ? `${redacted.slice(0, 200)}…` : redacted;
}

function strictBodies(externalSchemas: unknown, options: { customOptions?: object }) {
  const lenient = ajvCompilers(externalSchemas as never, options as never);
  const strict = ajvCompilers(
    externalSchemas as never,
    { ...options, customOptions: { ...options.customOptions, coerceTypes: false } } as never,
  );
  return (route: { httpPart?: string }) =>
    route.httpPart === 'body' ? strict(route as never) : finiteNumbers(lenient(route as never) as Validator);
}

export interface AppOptions {
  /** The access log (one info line per request); off in tests and benchmarks, on in `academy serve` unless ACADEMY_ACCESS_LOG=false. */
  logRequests?: boolean;
  /** Mounts extra routes before the app is ready (tests use it for test-only routes). */
  register?: (http: FastifyInstance) => Promise<void>;
  /**
   * Once ready, starts in the background what a server's first requests would otherwise wait for: the
   * search's samples (`academy serve`; tests build apps without it).
   */
  warm?: boolean;
}

export interface App {
  http: FastifyInstance;
  metrics: Metrics;
}

/** Builds the HTTP application over an assembly (a platform and its services). `server.ts` only listens; tests call `inject`. */
export async function buildApp({ platform, services }: Assembly, options: AppOptions = {}): Promise<App> {
  const http = Fastify({
    ...serverOptions(platform.config),
    // Its `child` makes each request's logger, lazily (src/http/request-logger.ts).
    loggerInstance: serverLogger(platform.logger as FastifyBaseLogger),
    // Fastify's own two lines per request are replaced by one access-log line (below).
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: (request) => requestId(request),
    trustProxy: platform.config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Shutdown and framework errors answer in the contract's error format (src/http/conventions.ts).
    return503OnClosing: false,
    frameworkErrors: (_error, request, reply) => {
      // An undecodable path (bad percent-encoding) addresses nothing: the same 404 as any unknown path.
      reply.header('x-request-id', request.id);
      sendError(reply, new NotFoundError());
    },
    // Bodies are checked as every input is (src/platform/validation.ts); queries coerce their text.
    ajv: { customOptions: { ...INPUT_OPTIONS, coerceTypes: 'array' }, onCreate: configureAjv },
    schemaController: { compilersFactory: { buildValidator: strictBodies as never } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const metrics = createMetrics({ gc: platform.config.gcMetrics });
  addPlatformMetrics(metrics.registry, platform, modules as readonly AcademyModule[]);
  http.removeContentTypeParser('text/plain');
  http.addSchema(ErrorBody);
  const otherMethod = registerErrorHandling(http);
  registerConventions(http, platform);
  answerUnroutedEarly(http, otherMethod);
  registerInputChecks(http);
  registerAccessControl(http, platform);
  registerServiceContext(http, platform);
  registerMetrics(http, metrics);
  // The change feed starts listening at the first look at its stamp (src/platform/changes.ts), and
  // caches keep nothing until it listens: an API process looks once it is ready, so that what the
  // first burst of requests reads (their token, say) is kept rather than read by each of them.
  http.addHook('onReady', (done) => {
    platform.changes.stamp();
    if (options.warm) void services.search.warm();
    done();
  });
  if (options.logRequests) {
    // The access log: one line per request at info; the token's id, never the token.
    http.addHook('onResponse', (request, reply, done) => {
      // Through the parent with the request's id, as the request's own logger would write it, so that
      // the request's logger is made only when the request logs something else (src/http/request-logger.ts).
      platform.logger.info(
        {
          reqId: request.id,
          method: request.method,
          route: request.routeOptions.url ?? null,
          url: loggedUrl(request.url),
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 10) / 10,
          tokenId: request.actor?.tokenId ?? null,
          ip: request.ip,
        },
        'request',
      );
      done();
    });
  }
  registerIdempotency(http, services.idempotency);

  // A GET or HEAD has no body to inflate (Fastify reads none for them): no decompression hook on
  // every read. Routes whose answers are kept representations compress them once themselves
  // (src/http/representations.ts) and say `compress: false`.
  http.addHook('onRoute', (route) => {
    if ([route.method].flat().every(isRead)) route.decompress ??= false;
  });
  // Compressed when the client asks and the JSON is worth it (files are sent as they are, ranges intact).
  await http.register(fastifyCompress, {
    global: true,
    threshold: COMPRESSION.threshold,
    encodings: [...COMPRESSION.encodings],
    customTypes: /^application\/json/,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: COMPRESSION.brotliQuality } },
  });
  if (platform.config.corsOrigins) {
    await http.register(fastifyCors, {
      origin: platform.config.corsOrigins === '*' ? '*' : platform.config.corsOrigins,
      methods: ['GET', 'POST', 'PATCH', 'DELETE'],
      allowedHeaders: [
        'Authorization',
        'Content-Type',
        'Idempotency-Key',
        'If-None-Match',
        'If-Match',
        'If-Range',
        'Range',
        'X-Request-Id',
      ],
      exposedHeaders: CORS_EXPOSED_HEADERS,
      maxAge: 600,
      strictPreflight: false,
    });
  }

  await http.register(fastifySwagger, openApiOptions(modules as readonly AcademyModule[]));
  await http.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    uiConfig: {
      deepLinking: true,
      validatorUrl: null,
      tryItOutEnabled: true,
      // The token entered under Authorize survives a reload; the filter box searches operations by tag.
      persistAuthorization: true,
      filter: true,
      displayRequestDuration: true,
      docExpansion: 'list',
    },
    theme: { title: 'Academy API reference' },
    logo: { type: 'image/svg+xml', content: REFERENCE_LOGO, href: '/docs', target: '_self' },
    staticCSP: true,
    // Served over plain HTTP at any address (an intranet host, a container's IP), the page must not
    // ask the browser to fetch its own assets over https: that left it blank. Swagger UI sets inline
    // styles as it renders (the try-it-out's fields among them): styles may be inline here, scripts
    // still may not, and nothing comes from another site.
    transformStaticCSP: (header: string) =>
      header.replace(/\s*upgrade-insecure-requests;?/g, '').replace(/style-src [^;]*/, "style-src 'self' 'unsafe-inline'"),
    transformSpecificationClone: true,
    uiHooks: {},
  });

  await http.register(systemRoutes, { platform, metrics });

  const context = { platform, services, modules };
  await http.register(
    async (v1) => {
      for (const module of modules as readonly AcademyModule[]) {
        const routes = module.routes?.(context);
        if (routes) await v1.register(routes);
      }
    },
    { prefix: '/api/v1' },
  );
  for (const module of modules as readonly AcademyModule[]) {
    const pages = module.pages?.(context);
    if (pages) await http.register(pages);
  }

  await options.register?.(http);
  await http.ready();
  return { http, metrics };
}
