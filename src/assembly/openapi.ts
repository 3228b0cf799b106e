import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { OperationErrors } from '../http/error-codes.ts';
import { MAX_BODY_VALUES } from '../http/input.ts';
import type { AcademyModule } from '../modules/manifest.ts';
import { POLICIES } from '../platform/rate-limit.ts';
import { MAX_REPORTED_FIELDS } from '../platform/validation.ts';
import { completeDocument, FACTS } from './openapi-document.ts';

/**
 * What a route says of itself for the OpenAPI document, beside its schema and its `access`
 * (src/http/access.ts):
 * - `errors`: the error codes it answers beyond each status's defaults, e.g. `{ 409: ['invalid_transition'] }`
 *   (src/http/error-codes.ts); each status is documented as one of its responses;
 * - `location`: its success answers carry `Location`, the path of what it created or queued.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    errors?: OperationErrors;
    location?: true;
  }
}

const description = `
The Training Administration REST API v1 of Academy.

## Conventions
- JSON in and out. A single item is \`{"data": {…}}\`; a list is \`{"data": […], "links": {…}, "meta": {…}}\` with an RFC 8288 \`Link\` header.
- \`page\` is 1-based; \`per_page\` defaults to 15 and is clamped to the server's maximum page size (\`ACADEMY_MAX_PAGE_SIZE\`, 100 by default). 0, negative or non-integer values are a 422. A page past the end is an empty list.
- List \`links\`, \`meta.path\` and \`Link\` headers are paths relative to the request's URL (\`/api/v1/tasks?page=2&per_page=15\`), or absolute URLs when the deployment configures its public URL; never built from the \`Host\` header.
- Ids are positive integers; a malformed id in a path is a 404, and so is a path parameter holding a NUL character. Timestamps are RFC 3339 in UTC.
- A NUL character in any string of a body or query is a 422 naming the field. A JSON body holds at most ${MAX_BODY_VALUES} values (object members and array items at any depth); a 422 names at most ${MAX_REPORTED_FIELDS} fields, and \`errors._\` says when more were left out.
- Every response carries \`X-Request-Id\` (echoed when the client sent a sane one). GET responses carry an \`ETag\`; a matching \`If-None-Match\` gets a 304. Every PATCH accepts \`If-Match\` with that ETag (or \`*\`): when the resource has changed since, it is a 412 \`precondition_failed\` and nothing changes. Authenticated GETs are \`Cache-Control: private, no-cache\` with \`Vary: Authorization\`.
- JSON responses above 1 KB are compressed (br or gzip) when the client sends \`Accept-Encoding\`. Browser apps are allowed by origin (\`ACADEMY_CORS_ORIGINS\`). A known path asked with another method is a 405 with \`Allow\`; \`OPTIONS\` answers with \`Allow\`.
- POST endpoints accept \`Idempotency-Key\` (at most 255 characters, kept 24 hours per token): a repeat with the same body replays the first response with \`Idempotent-Replayed: true\`; the same key with another body is a 422 \`idempotency_key_reused\`; while the first request is still running, a 409 \`idempotency_key_in_use\`. A first request that was carried out but whose response was lost (a server error after its changes were saved, or a server that stopped) is not run again: a repeat is a 409 \`idempotency_key_answer_lost\`; a request that saved nothing may be retried under its key.

## Authentication
Bearer tokens (\`Authorization: Bearer acd_…\`), created outside the API with \`academy tokens create\`. Each operation names the scope it needs; \`*\` grants every scope; \`certificates:issue\` and \`integrations:manage\` grant nothing through this API. A missing, unknown, expired or revoked token is a 401 with \`WWW-Authenticate\`; a token without the scope is a 403 \`insufficient_scope\`.

## Rate limits
Per token, ${POLICIES.default.limit} requests per ${POLICIES.default.windowSeconds} seconds (policy \`default\`; a deployment may set another limit, which \`RateLimit-Policy\` always states). Public certificate verification: ${POLICIES.public.limit} per ${POLICIES.public.windowSeconds} seconds per client address (policy \`public\`). Requests without a valid token: ${POLICIES.anonymous.limit} per ${POLICIES.anonymous.windowSeconds} seconds per client address (policy \`anonymous\`). Responses carry \`RateLimit-Policy\` and \`RateLimit\` (draft-ietf-httpapi-ratelimit-headers-11) and \`X-RateLimit-Limit\` / \`X-RateLimit-Remaining\` / \`X-RateLimit-Reset\` (Unix time); a 429 adds \`Retry-After\`. Every request counts, a 304 included.

## Versions
\`GET /api\` lists the API versions with their status and dates. A deprecated version's responses carry \`Deprecation\` (RFC 9745), \`Sunset\` (RFC 8594) when a date is set, and \`Link\` relations to the documentation; past its sunset date every call is a 410 \`version_sunset\`.

## Errors
Every error body is \`{"message": "…", "code": "snake_case", "errors"?: {"field": ["…"]}}\`.

| status | code | when |
|---|---|---|
| 400 | \`malformed_request\` | unparseable JSON or multipart, a malformed HTTP request, or an HTTP/1.1 request without \`Host\` |
| 401 | \`unauthenticated\` | no token, or an unknown, expired or revoked token |
| 403 | \`insufficient_scope\` | the token lacks the operation's scope |
| 403 | \`permission_denied\` | the acting user lacks a required permission |
| 404 | \`not_found\` | no such resource (one body for every case) |
| 405 | \`method_not_allowed\` | the path exists, but not with this method; \`Allow\` lists its methods |
| 408 | \`request_timeout\` | the request's headers or body did not arrive in time; the connection is closed |
| 409 | \`invalid_transition\`, \`report_not_available\`, \`not_retryable\`, \`task_disabled\`, \`conflict\`, \`idempotency_key_in_use\`, \`idempotency_key_answer_lost\` | the resource's state does not allow the action, or an \`Idempotency-Key\`'s first request is running or lost its response |
| 410 | \`version_sunset\` | the API version is past its sunset date |
| 412 | \`precondition_failed\` | a PATCH's \`If-Match\` does not match the resource's current ETag; nothing changed |
| 413 / 415 | \`payload_too_large\` / \`unsupported_media_type\` | body too large or of a refused type; for documents, per type, the media type read from the content |
| 416 | \`range_not_satisfiable\` | a download's \`Range\` lies outside the file |
| 422 | \`validation_failed\`, \`idempotency_key_reused\` | invalid input, with \`errors\` keyed by field |
| 429 | \`rate_limited\` | rate limit exceeded |
| 431 | \`headers_too_large\` | the request headers are too large; the connection is closed |
| 500 / 503 | \`internal_error\` / \`unavailable\` | server-side failure |
`.trim();

/**
 * The document's options over the modules' contributions: the examples of the schemas they name
 * (AcademyModule.examples), collected here so that the assembly imports no module.
 */
export function openApiOptions(modules: readonly AcademyModule[]): FastifyDynamicSwaggerOptions {
  const examples: Record<string, unknown> = {};
  for (const module of modules) {
    for (const [name, example] of Object.entries(module.examples ?? {})) {
      if (name in examples) throw new Error(`OpenAPI: the module ${module.name} gives the schema ${name} a second example`);
      examples[name] = example;
    }
  }
  return {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Academy — Training Administration API', version: '1.0.0', description },
      servers: [{ url: '/', description: 'This server' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'An access token created with `academy tokens create`.' },
        },
      },
    },
    // Shared schemas appear under their own names in components.schemas.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    // Public routes say so explicitly (no security) and document their rate limit; scoped routes get
    // theirs from the access hook (src/http/access.ts), which also validates them. What a route
    // declares in its config (its error codes, `Location`) rides along to the document's completion
    // as extensions of its operation, which the completion reads and removes.
    transform: ({ schema, url, route }) => {
      const { access, errors, location } = route.config ?? {};
      const open = typeof access === 'object' && 'public' in access;
      if (!schema || !(open || errors || location)) return { schema, url };
      const response: Record<string, unknown> = { ...(open ? { 429: { $ref: 'Error' } } : {}), ...(schema.response as object) };
      for (const status of Object.keys(errors ?? {})) response[status] ??= { $ref: 'Error' };
      return {
        url,
        schema: {
          ...schema,
          ...(open ? { security: [] } : {}),
          response,
          ...(errors ? { [FACTS.errors]: errors } : {}),
          ...(location ? { [FACTS.location]: true } : {}),
        },
      };
    },
    transformObject: (documentObject) => {
      const document = 'openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject;
      return completeDocument(document as Record<string, any>, examples) as typeof document;
    },
  };
}
