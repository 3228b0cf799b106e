import { DEFAULT_CODES, ERROR_CODES, type ErrorCode, type OperationErrors } from '../http/error-codes.ts';
import { WEBHOOK_EVENTS, webhookEnvelope } from '../modules/webhooks/events.ts';
import { WEBHOOK_EVENT_TYPES } from '../platform/events/types.ts';
import { POLICIES } from '../platform/rate-limit.ts';

/**
 * Completes the document the routes describe (src/assembly/openapi.ts) with what no single route says:
 * declared tags, contact and licence, named headers, parameters and error responses (each error
 * response with the `code` values it can carry), 304s on conditional GETs, the `Idempotency-Key`
 * outcomes of authenticated POSTs, 412 on PATCH, examples for every schema and operation, and the
 * `webhooks` the platform delivers. Runtime serialization is untouched: only the document changes.
 *
 * It reads what each route declares (its tags and schemas; its error codes and `Location` in its
 * config, carried here as the operation's FACTS) and the examples of the schemas the modules name:
 * nothing here is particular to one operation or one module.
 */

type Json = Record<string, any>;

const ref = (kind: 'schemas' | 'headers' | 'responses' | 'parameters', name: string) => ({ $ref: `#/components/${kind}/${name}` });

export const TAGS: { name: string; description: string }[] = [
  { name: 'Meta', description: 'The API versions with their lifecycle status and dates.' },
  { name: 'Organization', description: 'The training provider: name, contact details, timezone, locale and currency.' },
  { name: 'Courses', description: 'The training catalogue, in every publication state.' },
  { name: 'Sessions', description: 'Course intakes (sessions): dates, registration window, seats and waitlist.' },
  { name: 'Assessments', description: "A session's exams and assignments." },
  { name: 'Meetings', description: "A session's scheduled meetings (class days)." },
  { name: 'Learning resources', description: "A session's published learning resources: files, links and texts." },
  { name: 'Students', description: 'People with at least one course application who are not staff.' },
  { name: 'Enrolments', description: 'Enrolments of students in sessions, with waitlist positions and completion outcomes.' },
  { name: 'Certificates', description: 'Certificates issued for passed enrolments, and their public verification.' },
  { name: 'Documents', description: 'Uploaded documents (streamed to storage, type-checked by content) and their downloads.' },
  { name: 'Users', description: 'Staff users and their lifecycle: invite, activate, suspend, reactivate, archive.' },
  { name: 'Notifications', description: 'The lifecycle emails sent to users, with their delivery status.' },
  { name: 'Workflows', description: 'Approval workflows (course and document approval): assignment and state transitions.' },
  { name: 'Reports', description: 'Reports generated in the background (CSV or XLSX), then downloaded.' },
  { name: 'Tasks', description: 'Scheduled background tasks, their runs, and running one now.' },
  { name: 'Integrations', description: 'Messages delivered to integrations (events POSTed to configured URLs), and retrying failed ones.' },
  { name: 'Health', description: 'Health checks of the database, queue, storage and other components.' },
  { name: 'Search', description: 'One search over every resource type, grouped by type.' },
  { name: 'Audit', description: 'The audit trail: every change, who made it, through what and what changed (an addition to v1).' },
];

const RATE_LIMIT_HEADERS = ['RateLimit', 'RateLimit-Policy', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

const policy = POLICIES.default;
const HEADERS: Json = {
  'X-Request-Id': {
    description:
      'Identifies the request in the server logs: the client’s own `X-Request-Id` when it is sane (1–128 of `A-Za-z0-9._:-`), otherwise a new UUID.',
    schema: { type: 'string', maxLength: 128 },
    example: '0f6b7e8e-3c1a-4d52-9a7e-2b9f4e1c6d30',
  },
  ETag: {
    description: 'A strong validator of the exact body; send it back in `If-None-Match` to get a 304 when nothing changed.',
    schema: { type: 'string' },
    example: '"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"',
  },
  Link: {
    description:
      'RFC 8288 links of the list: `first`, `last`, and `prev` / `next` where they exist (the same as `links` in the body); on a deprecated version also its `deprecation` and `sunset` documentation.',
    schema: { type: 'string' },
    example:
      '</api/v1/courses?page=1&per_page=15>; rel="first", </api/v1/courses?page=2&per_page=15>; rel="last", </api/v1/courses?page=2&per_page=15>; rel="next"',
  },
  Location: {
    description: 'The path of the created or queued resource.',
    schema: { type: 'string' },
    example: '/api/v1/reports/6',
  },
  RateLimit: {
    description: 'The remaining quota of the policy and the seconds until its window resets (draft-ietf-httpapi-ratelimit-headers-11).',
    schema: { type: 'string' },
    example: `"${policy.name}";r=117;t=42`,
  },
  'RateLimit-Policy': {
    description: `The quota policy: \`default\` (per token), \`public\` (certificate verification, per client address) or \`anonymous\` (requests without a valid token, per client address).`,
    schema: { type: 'string' },
    example: `"${policy.name}";q=${policy.limit};w=${policy.windowSeconds}`,
  },
  'X-RateLimit-Limit': {
    description: 'Requests allowed per window.',
    schema: { type: 'integer', minimum: 1 },
    example: policy.limit,
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer', minimum: 0 },
    example: 117,
  },
  'X-RateLimit-Reset': {
    description: 'When the current window resets, in Unix time (seconds).',
    schema: { type: 'integer' },
    example: 1795496442,
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer', minimum: 1 },
    example: 42,
  },
  'WWW-Authenticate': {
    description:
      'The Bearer challenge: `error="invalid_token"` when a token was sent, `error="insufficient_scope", scope="…"` when it lacks the scope.',
    schema: { type: 'string' },
    example: 'Bearer realm="academy", error="invalid_token"',
  },
  'Idempotent-Replayed': {
    description: 'Present on a response replayed for a repeated `Idempotency-Key`.',
    schema: { type: 'string', enum: ['true'] },
    example: 'true',
  },
  'Cache-Control': {
    description: 'Answers depend on the token: `private, no-cache` (a shared cache must not keep them, a private one must revalidate).',
    schema: { type: 'string' },
    example: 'private, no-cache',
  },
};

const PARAMETERS: Json = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes the request safe to retry: a repeat with the same key and body within 24 hours replays the first response (with `Idempotent-Replayed: true`); the same key with another body is a 422 `idempotency_key_reused`; while the first request still runs, a 409 `idempotency_key_in_use`; once the first request was carried out but its response was lost (a server error after its changes were saved, or a server that stopped), a 409 `idempotency_key_answer_lost`, and the request is not run again. A new random value per change, e.g. `5d3c2a8e-7f41-4b0c-9d6e-1a2b3c4d5e6f` (no example value is given here: a client, or the try-it-out of /docs, that sent one would replay its first request).',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description:
      'The `ETag` of the copy the client has, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when it still matches, the answer is a 304 without a body (counted against the rate limit like any request).',
    schema: { type: 'string' },
  },
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    required: false,
    description:
      'The `ETag` of the version the change is based on, as a `GET` gave it, e.g. `"q3V0cB9mJ2kX8rT1yH6nL4wZ5aE7sD0f"`: when the resource has changed since, the answer is a 412 `precondition_failed` and nothing is written. Without it, the change applies to the current version.',
    schema: { type: 'string' },
  },
};

/**
 * The extensions of an operation that carry what its route declares in its config (src/assembly/openapi.ts)
 * to the completion, which removes them.
 */
export const FACTS = { errors: 'x-academy-errors', location: 'x-academy-location' } as const;

/** The examples of the kit's own schemas; those of the modules' schemas come with the modules. */
const KIT_EXAMPLES: Record<string, unknown> = {
  Error: { message: 'The requested resource was not found.', code: 'not_found' },
};

const ERROR_HEADERS: Record<string, string[]> = {
  401: ['WWW-Authenticate'],
  403: ['WWW-Authenticate'],
  429: ['Retry-After', ...RATE_LIMIT_HEADERS],
};

const pascal = (code: string) => code.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());

/** A named error response for one set of codes, e.g. `InvalidTransitionOrIdempotencyKeyInUse`. */
function errorResponse(components: Json, status: string, codes: readonly string[]): { $ref: string } {
  const name = codes.map(pascal).join('Or');
  if (!components.responses[name]) {
    const examples = Object.fromEntries(
      codes.map((code) => {
        const known: { status: number; message: string; errors?: object } | undefined = ERROR_CODES[code as ErrorCode];
        if (!known || String(known.status) !== status) throw new Error(`OpenAPI: the error code ${code} is not a ${status}`);
        const value = { message: known.message, code, ...(known.errors ? { errors: known.errors } : {}) };
        return [code, { summary: `\`${code}\``, value }];
      }),
    );
    components.responses[name] = {
      description: `${RESPONSE_DESCRIPTIONS[status] ?? 'Error'}: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
      headers: Object.fromEntries(['X-Request-Id', ...(ERROR_HEADERS[status] ?? [])].map((h) => [h, ref('headers', h)])),
      content: {
        'application/json': {
          schema: {
            allOf: [ref('schemas', 'Error'), { type: 'object', properties: { code: { type: 'string', enum: codes } } }],
          },
          examples,
        },
      },
    };
  }
  return ref('responses', name);
}

const RESPONSE_DESCRIPTIONS: Record<string, string> = {
  200: 'Success',
  201: 'Created',
  202: 'Accepted; the work continues in the background',
  204: 'Done; no content',
  206: 'Partial content: the requested range',
  304: 'Not modified (the `If-None-Match` ETag matches)',
  400: 'Malformed request',
  401: 'No token, or an unknown, expired or revoked token',
  403: 'The token lacks the scope, or the acting user a permission',
  404: 'No such resource',
  409: 'The resource state does not allow this',
  412: 'The resource changed since the `If-Match` version',
  413: 'Payload too large',
  415: 'Unsupported media type',
  416: 'Range not satisfiable',
  422: 'Invalid input, with messages keyed by field',
  429: 'Rate limit exceeded; retry after `Retry-After` seconds',
  503: 'Unavailable',
};

// ---- examples ------------------------------------------------------------------------------------

const PAGE_LINKS = (path: string) => ({
  first: `${path}?page=1&per_page=15`,
  last: `${path}?page=2&per_page=15`,
  prev: null,
  next: `${path}?page=2&per_page=15`,
});

const PAGE_META = (path: string) => ({ current_page: 1, from: 1, last_page: 2, path, per_page: 15, to: 15, total: 27 });

/** An example value built from a schema, from the examples of the named schemas it refers to. */
function exampleOf(schema: Json | undefined, doc: Json, where: string): unknown {
  if (!schema || typeof schema !== 'object') throw new Error(`OpenAPI: no schema at ${where}`);
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop() as string;
    const target = doc.components.schemas[name];
    if (!target) throw new Error(`OpenAPI: ${where} refers to the unknown schema ${name}`);
    return exampleOf(target, doc, name);
  }
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if ('example' in schema) return schema.example;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) {
    const branch = branches.find((b: Json) => b.type !== 'null') ?? branches[0];
    return exampleOf(branch, doc, where);
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...schema.allOf.map((part: Json, i: number) => exampleOf(part, doc, `${where}/allOf/${i}`)));
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries((schema.properties ?? {}) as Json).map(([key, property]) => [key, exampleOf(property, doc, `${where}.${key}`)]),
      );
    case 'array':
      return [exampleOf(schema.items, doc, `${where}[]`)];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string':
      if (schema.format === 'date-time') return '2026-11-24T09:30:00.000Z';
      if (schema.format === 'date') return '2026-11-24';
      if (schema.format === 'binary' || schema.contentEncoding === 'binary') return '%PDF-1.7 …';
      break;
  }
  missing.push(where);
  return null;
}

/** Where `exampleOf` found no example: reported all at once. */
const missing: string[] = [];

// ---- assembling ------------------------------------------------------------------------------------

function isList(schema: Json | undefined): boolean {
  return schema?.type === 'object' && schema.properties?.data?.type === 'array' && schema.properties?.links && schema.properties?.meta;
}

/** Lists get a named envelope (`CourseList`) over the shared `PaginationLinks` and `PaginationMeta`. */
function listSchema(doc: Json, schema: Json, path: string, example: unknown): Json {
  const items = schema.properties.data.items as Json;
  if (!doc.components.schemas.PaginationLinks) {
    doc.components.schemas.PaginationLinks = { ...schema.properties.links, examples: [PAGE_LINKS('/api/v1/courses')] };
    doc.components.schemas.PaginationMeta = { ...schema.properties.meta, examples: [PAGE_META('/api/v1/courses')] };
  }
  const item = typeof items.$ref === 'string' ? (items.$ref.split('/').pop() as string) : null;
  if (!item) throw new Error(`OpenAPI: the list at ${path} has no named item schema`);
  const name = `${item}List`;
  doc.components.schemas[name] ??= {
    type: 'object',
    description: `A page of ${item} items, with links to the other pages.`,
    required: ['data', 'links', 'meta'],
    properties: { data: { type: 'array', items }, links: ref('schemas', 'PaginationLinks'), meta: ref('schemas', 'PaginationMeta') },
    examples: [example],
  };
  return ref('schemas', name);
}

function headersOf(names: string[]): Json {
  return Object.fromEntries(names.map((name) => [name, ref('headers', name)]));
}

function completeOperation(doc: Json, path: string, method: string, op: Json): void {
  const id = op.operationId as string;
  if (!id) throw new Error(`OpenAPI: ${method.toUpperCase()} ${path} has no operationId`);
  const declared = (op[FACTS.errors] ?? {}) as Record<string, readonly string[]>;
  const location = op[FACTS.location] === true;
  delete op[FACTS.errors];
  delete op[FACTS.location];
  for (const tag of op.tags ?? []) {
    if (!TAGS.some((t) => t.name === tag)) throw new Error(`OpenAPI: ${id} uses the undeclared tag ${tag}`);
  }
  const scoped = Array.isArray(op.security) && op.security.length > 0;
  if (!scoped) op.security = [];
  const counted = scoped || op.responses['429'] !== undefined;
  const idempotent = method === 'post' && scoped;
  // GETs whose answer carries an ETag that If-None-Match is checked against: JSON answers
  // (src/http/conventions.ts) and the routes that document their own 304 (document downloads).
  const conditional =
    method === 'get' && (op.responses['200']?.content?.['application/json'] !== undefined || op.responses['304'] !== undefined);
  const patch = method === 'patch';

  const parameters = (op.parameters ?? []) as Json[];
  if (idempotent) parameters.push(ref('parameters', 'IdempotencyKey'));
  if (conditional) parameters.push(ref('parameters', 'IfNoneMatch'));
  if (patch) parameters.push(ref('parameters', 'IfMatch'));
  if (parameters.length) op.parameters = parameters;

  const responses = op.responses as Json;
  if (conditional) responses['304'] = ref('responses', counted ? 'NotModified' : 'NotModifiedUnmetered');
  if (idempotent) {
    responses['409'] ??= {};
    responses['422'] ??= {};
  }
  if (patch) responses['412'] = {};

  for (const [status, response] of Object.entries(responses) as [string, Json][]) {
    if (response.$ref) continue;
    const code = Number(status);
    const media = response.content?.['application/json'];
    const isError = code >= 400 && (media === undefined || media.schema?.$ref === '#/components/schemas/Error');
    if (isError) {
      const defaults: readonly string[] = DEFAULT_CODES[code as keyof OperationErrors] ?? [];
      let codes = [...new Set([...defaults, ...(declared[status] ?? [])])];
      if (!codes.length && !(idempotent && status === '409')) {
        throw new Error(`OpenAPI: ${id} answers ${status}, but its route declares no error codes for it (config.errors)`);
      }
      if (idempotent && status === '409') codes = [...codes, 'idempotency_key_in_use', 'idempotency_key_answer_lost'];
      if (idempotent && status === '422') codes = [...codes, 'idempotency_key_reused'];
      responses[status] = errorResponse(doc.components, status, codes);
      continue;
    }
    if (response.description === 'Default Response' || !response.description)
      response.description = RESPONSE_DESCRIPTIONS[status] ?? 'Response';
    const headers = ['X-Request-Id'];
    if (counted) headers.push(...RATE_LIMIT_HEADERS);
    if (code >= 200 && code < 300) {
      if (method === 'get') headers.push('ETag');
      if (method === 'get' && scoped) headers.push('Cache-Control');
      if (isList(media?.schema)) headers.push('Link');
      if (location) headers.push('Location');
      if (idempotent) headers.push('Idempotent-Replayed');
    }
    response.headers = { ...headersOf(headers), ...response.headers };
    if (!media) continue;
    if (isList(media.schema)) {
      const listPath = path.replace(/\{course\}/, 'project-management-fundamentals').replace(/\{session\}/, '3');
      const item = media.schema.properties.data.items;
      media.example = { data: [exampleOf(item, doc, `${id} ${status}`)], links: PAGE_LINKS(listPath), meta: PAGE_META(listPath) };
      media.schema = listSchema(doc, media.schema, `${id} ${status}`, media.example);
    } else {
      media.example = exampleOf(media.schema, doc, `${id} ${status}`);
    }
  }

  for (const media of Object.values((op.requestBody?.content ?? {}) as Json)) {
    media.example ??= exampleOf(media.schema, doc, `${id} request body`);
  }
}

function webhooks(doc: Json): Json {
  const result: Json = {};
  for (const type of WEBHOOK_EVENT_TYPES) {
    const event = WEBHOOK_EVENTS[type];
    const name = `${pascal(type.replace(/\./g, '_'))}Event`;
    const envelope = JSON.parse(JSON.stringify(webhookEnvelope(type, event.payload))) as Json;
    doc.components.schemas[name] = {
      ...envelope,
      description: event.summary,
      examples: [{ id: 'evt_Qm9a3kT2xVbL8pRw1cYz', type, version: '1', occurred_at: '2026-11-24T09:30:00.000Z', payload: event.example }],
    };
    result[type] = {
      post: {
        operationId: `on${pascal(type.replace(/\./g, '_'))}`,
        tags: ['Webhooks'],
        summary: type,
        description:
          `${event.summary}\n\nPOSTed to every enabled webhook endpoint subscribed to \`${type}\` (Standard Webhooks: \`webhook-id\`, ` +
          '`webhook-timestamp`, `webhook-signature`), at least once, retried with backoff until a 2xx; a 410 disables the endpoint.',
        security: [],
        parameters: WEBHOOK_PARAMETERS,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: ref('schemas', name), example: doc.components.schemas[name].examples[0] } },
        },
        responses: {
          '200': { description: 'Received (any 2xx ends the delivery as succeeded).' },
          '410': { description: 'The endpoint is gone: it is disabled and gets no further deliveries.' },
        },
      },
    };
  }
  return result;
}

const WEBHOOK_PARAMETERS = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event id (the body’s `id`): the same on every retry.',
    schema: { type: 'string' },
    example: 'evt_Qm9a3kT2xVbL8pRw1cYz',
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'When this attempt was signed, in Unix time (seconds).',
    schema: { type: 'string', pattern: '^[0-9]+$' },
    example: '1795512600',
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description: '`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` with the endpoint’s secret (base64-decoded `whsec_…`).',
    schema: { type: 'string' },
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
];

/** Completes the document; `examples` are the modules' examples of their named schemas, by name. */
export function completeDocument(doc: Json, examples: Readonly<Record<string, unknown>>): Json {
  doc.info.contact = { name: 'Academy API team', url: 'https://academy.example/support', email: 'api@academy.example' };
  doc.info.license = { name: 'Proprietary', url: 'https://academy.example/terms' };
  doc.tags = [...TAGS, { name: 'Webhooks', description: 'Events the platform POSTs to subscribed webhook endpoints and integrations.' }];
  doc.components.headers = HEADERS;
  doc.components.parameters = PARAMETERS;
  doc.components.responses = {
    NotModified: {
      description: 'Not modified: the `If-None-Match` ETag matches; no body.',
      headers: headersOf(['X-Request-Id', 'ETag', ...RATE_LIMIT_HEADERS]),
    },
    NotModifiedUnmetered: {
      description: 'Not modified: the `If-None-Match` ETag matches; no body.',
      headers: headersOf(['X-Request-Id', 'ETag']),
    },
  };
  for (const [name, schema] of Object.entries(doc.components.schemas as Json)) {
    const example = KIT_EXAMPLES[name] ?? examples[name];
    if (example === undefined) throw new Error(`OpenAPI: the schema ${name} has no example (the examples of its module's manifest)`);
    schema.examples = [example];
  }
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) completeOperation(doc, path, method, op);
  }
  doc.webhooks = webhooks(doc);
  if (missing.length) {
    const list = missing.splice(0).join(', ');
    throw new Error(`OpenAPI: no example for ${list}; give these schemas \`examples\``);
  }
  return doc;
}
