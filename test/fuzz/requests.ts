import fc from 'fast-check';
import { anyJson, invalidFor, nastyString, parameterValue, validFor } from './arbitraries.ts';
import type { OpenApiDocument, Operation, Schema } from './document.ts';

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /**
   * A GET: after a 200 with an ETag, ask again with `If-None-Match` set to it. A PATCH: read the
   * resource first and send its real ETag in `If-Match`.
   */
  revalidate: boolean;
}

/** What the fuzzer knows of the seeded database, and the tokens it may present. */
export interface World {
  /** Valid path parameter sets per operation path (`/api/v1/courses/{course}` → `[{ course: 'intro' }]`). */
  paths: Map<string, Record<string, string>[]>;
  /** Known ids and slugs by kind, to put into bodies and queries. */
  ids: number[];
  /** A token per scope; `*` for every scope. */
  tokens: Map<string, string>;
  /** A token whose scope is of no use to the operation at hand. */
  otherToken(scope: string | null): string;
}

const ODD_ACCEPT = ['application/json', '*/*', 'text/html', 'application/xml', 'application/json;q=0', 'garbage;;;q=x', ''];

const INVALID_PATH_VALUES = fc.oneof(
  nastyString.filter((s) => s.length > 0),
  fc.integer({ min: -5, max: 3_000_000_000 }).map(String),
  fc.constantFrom('07', '7.0', '0x7', '+7', '1e2', ' 1', '1 ', 'undefined', 'null', '-0'),
);

/** Percent-sequences sent as they are: invalid UTF-8, a NUL, an undecodable escape. */
const RAW_PATH_VALUES = ['%zz', '%00', '%C0%AF', '%E2%82', '%2F', '%252F'];

/**
 * `encodeURIComponent`, except that a lone surrogate, which it refuses with "URI malformed", goes out
 * as the three bytes a careless encoder writes for it: an escape that is not valid UTF-8, which the
 * server must refuse like any other undecodable path.
 */
export function encodePathSegment(value: string): string {
  let encoded = '';
  for (const char of value) {
    const code = char.codePointAt(0) as number;
    if (code < 0xd800 || code > 0xdfff) encoded += encodeURIComponent(char);
    else
      encoded += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
  }
  return encoded;
}

/** The operation's path with its parameters filled in, encoded but for those in `raw`. */
function fillPath(op: Operation, params: Record<string, string>, raw = new Set<string>()): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => (raw.has(name) ? (params[name] ?? '') : encodePathSegment(params[name] ?? '')));
}

function pathArbitrary(op: Operation, world: World): fc.Arbitrary<string> {
  const names = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
  if (names.length === 0) return fc.constant(op.path);
  const combos = world.paths.get(op.path) ?? [];
  const valid = combos.length ? fc.constantFrom(...combos) : fc.constant(Object.fromEntries(names.map((n) => [n, '1'])));
  const fill = (params: Record<string, string>, raw: Set<string>) => fillPath(op, params, raw);
  return fc.oneof(
    { weight: 6, arbitrary: valid.map((params) => fill(params, new Set())) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...names), INVALID_PATH_VALUES)
        .map(([params, name, value]) => fill({ ...params, [name]: value }, new Set())),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...names), fc.constantFrom(...RAW_PATH_VALUES))
        .map(([params, name, value]) => fill({ ...params, [name]: value }, new Set([name]))),
    },
  );
}

function queryArbitrary(op: Operation, document: OpenApiDocument): fc.Arbitrary<string> {
  const parameters = op.parameters.filter((p) => p.in === 'query');
  // Each parameter is sent about a third of the time; now and then twice (`?status=a&status=b` arrives as an array).
  const entry = (name: string, schema: Schema) =>
    fc.oneof(
      { weight: 40, arbitrary: fc.constant([] as string[][]) },
      { weight: 19, arbitrary: parameterValue(document, schema).map((v) => [[name, v]]) },
      {
        weight: 1,
        arbitrary: fc.array(parameterValue(document, schema), { minLength: 2, maxLength: 3 }).map((vs) => vs.map((v) => [name, v])),
      },
    );
  return fc
    .tuple(
      fc.tuple(...parameters.map((p) => entry(p.name, p.schema))),
      fc.option(fc.tuple(fc.string({ minLength: 1, maxLength: 10 }), nastyString), { freq: 4, nil: null }),
      fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    )
    .map(([entries, unknown, raw]) => {
      const pairs = entries.flat() as string[][];
      if (unknown) pairs.push(unknown);
      if (pairs.length === 0) return '';
      // Mostly well-encoded; sometimes with a raw `%` that does not decode.
      const encoded = new URLSearchParams(pairs as [string, string][]).toString();
      return `?${raw && pairs.length ? `${encoded}&bad=%zz%` : encoded}`;
    });
}

function authArbitrary(op: Operation, world: World): fc.Arbitrary<string | undefined> {
  const scoped = op.scope ? (world.tokens.get(op.scope) as string) : undefined;
  const star = world.tokens.get('*') as string;
  const options: fc.WeightedArbitrary<string | undefined>[] = [
    { weight: op.scope ? 1 : 6, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constant(`Bearer ${world.otherToken(op.scope)}`) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.constantFrom('Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'bearer acd_', 'Token x', `Bearer ${star}x`, `Bearer  ${star} extra`),
        nastyString.map((s) => `Bearer ${s}`),
        fc.stringMatching(/^acd_[A-Za-z0-9_-]{20,43}$/).map((s) => `Bearer ${s}`),
      ),
    },
    { weight: 2, arbitrary: fc.constant(`Bearer ${star}`) },
  ];
  if (scoped) options.push({ weight: 8, arbitrary: fc.constant(`Bearer ${scoped}`) });
  return fc.oneof(...options);
}

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'Application/JSON'];
const OTHER_TYPES = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/merge-patch+json',
  'application/jsonx',
  '',
];

interface Body {
  payload?: string | Buffer;
  contentType?: string;
}

function jsonBodyArbitrary(document: OpenApiDocument, schema: Schema | undefined): fc.Arbitrary<Body> {
  const valid = schema ? validFor(document, schema) : anyJson;
  const invalid = schema ? invalidFor(document, schema) : anyJson;
  const asJson = (arbitrary: fc.Arbitrary<unknown>) =>
    fc
      .tuple(arbitrary, fc.constantFrom(...JSON_TYPES))
      .map(([value, contentType]) => ({ payload: JSON.stringify(value) ?? 'null', contentType }));
  return fc.oneof(
    { weight: 5, arbitrary: asJson(valid) },
    { weight: 3, arbitrary: asJson(invalid) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.oneof(fc.constantFrom('{', '{"a":', '[1,]', 'nul', '\u0000', '{"a":1}{"b":2}', ''), fc.string()),
          fc.constantFrom(...JSON_TYPES),
        )
        .map(([payload, contentType]) => ({ payload, contentType })),
    },
    // The right body under another media type, or under none.
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...OTHER_TYPES))
        .map(([value, contentType]) => ({ payload: JSON.stringify(value) ?? '', contentType })),
    },
    // Nesting deep enough to hurt a recursive walker.
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 100, max: 5000 })
        .map((depth) => ({ payload: `${'['.repeat(depth)}${']'.repeat(depth)}`, contentType: 'application/json' })),
    },
  );
}

/** Content that the upload sniffs: a PDF, a PNG, plain text, nothing, or noise. */
const FILES: [string, Buffer][] = [
  ['cv.pdf', Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n')],
  ['photo.png', Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')],
  ['notes.txt', Buffer.from('plain words\n')],
  ['empty.pdf', Buffer.alloc(0)],
  ['evil.exe', Buffer.from('4d5a90000300000004000000ffff0000', 'hex')],
];

function multipartArbitrary(document: OpenApiDocument, schema: Schema, world: World): fc.Arbitrary<Body> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const fieldNames = Object.keys(properties).filter((n) => n !== 'file');
  const fieldValue = (name: string) =>
    fc.oneof(
      {
        weight: 8,
        arbitrary:
          name.endsWith('_id') && world.ids.length
            ? fc.constantFrom(...world.ids).map(String)
            : parameterValue(document, properties[name] as Schema),
      },
      { weight: 1, arbitrary: nastyString },
    );
  // The required `type` nearly always; the optional fields now and then.
  const fields = fc.tuple(
    ...fieldNames.map((name) =>
      fc.option(
        fieldValue(name).map((v) => [name, v] as const),
        { freq: name === 'type' ? 10 : 1, nil: null },
      ),
    ),
  );
  const file = fc.option(fc.constantFrom(...FILES), { freq: 8, nil: null });
  return fc
    .tuple(fields, file, fc.boolean(), fc.constantFrom('ok', 'ok', 'ok', 'ok', 'no-boundary', 'truncated', 'json'))
    .map(([chosen, attached, fileFirst, shape]) => {
      const boundary = '----academyfuzz';
      const parts: Buffer[] = [];
      const fieldParts = chosen
        .filter((f): f is readonly [string, string] => f !== null)
        .map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
      const fileParts = attached
        ? [
            Buffer.from(
              `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${attached[0]}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
            ),
            attached[1],
            Buffer.from('\r\n'),
          ]
        : [];
      parts.push(...(fileFirst ? [...fileParts, ...fieldParts] : [...fieldParts, ...fileParts]));
      parts.push(Buffer.from(`--${boundary}--\r\n`));
      const payload = Buffer.concat(parts);
      switch (shape) {
        case 'no-boundary':
          return { payload, contentType: 'multipart/form-data' };
        case 'truncated':
          return { payload: payload.subarray(0, Math.floor(payload.length / 2)), contentType: `multipart/form-data; boundary=${boundary}` };
        case 'json':
          return { payload: '{"type":"profile_document"}', contentType: 'application/json' };
        default:
          return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
      }
    });
}

function bodyArbitrary(op: Operation, document: OpenApiDocument, world: World): fc.Arbitrary<Body> {
  if (op.body?.['multipart/form-data']) return multipartArbitrary(document, op.body['multipart/form-data'], world);
  const json = op.body?.['application/json'];
  if (json) return jsonBodyArbitrary(document, json);
  // No documented body: usually none, sometimes one anyway (GET bodies are not read at all).
  if (op.method === 'GET') return fc.constant({});
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: jsonBodyArbitrary(document, undefined) },
    { weight: 1, arbitrary: fc.constant({ payload: '', contentType: 'application/json' }) },
  );
}

/** The largest id a path takes (IdParam): well-formed, and no row has it. */
const UNKNOWN_ID = '2147483647';

/**
 * Requests run before the generated ones, whatever the seed: the operation with each integer path id
 * in turn well-formed and unknown, with a token holding its scope. A handler that forgets its 404
 * answers a 5xx to one of these at once, where the generated paths reach that case only now and then
 * (a short seed can miss it). Operations with a body are left to the generated requests: the body
 * would have to be valid for the request to reach the handler.
 */
export function unknownIdRequests(op: Operation, world: World): FuzzRequest[] {
  const valid = world.paths.get(op.path)?.[0];
  if (op.body || !valid) return [];
  const ids = op.parameters.filter((p) => p.in === 'path' && (p.schema as { type?: unknown }).type === 'integer').map((p) => p.name);
  const token = world.tokens.get(op.scope ?? '*') ?? world.tokens.get('*');
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return ids.map((name) => ({ method: op.method, url: fillPath(op, { ...valid, [name]: UNKNOWN_ID }), headers, revalidate: false }));
}

export function requestArbitrary(op: Operation, document: OpenApiDocument, world: World): fc.Arbitrary<FuzzRequest> {
  const idempotencyKey =
    op.method === 'POST'
      ? fc.option(
          fc.oneof(
            { weight: 4, arbitrary: fc.uuid() },
            { weight: 1, arbitrary: fc.constantFrom('', 'k'.repeat(256), 'same-key') },
            { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 20 }) },
          ),
          { freq: 3, nil: undefined },
        )
      : fc.constant(undefined);
  // `*` matches any current representation: a 304 from a process that may have kept nothing yet.
  const ifNoneMatch =
    op.method === 'GET'
      ? fc.option(fc.constantFrom('*', '*', '"nope"', 'W/"x"', 'garbage', '""', '"a", *'), { freq: 3, nil: undefined })
      : fc.constant(undefined);
  const ifMatch =
    op.method === 'PATCH'
      ? fc.option(fc.constantFrom('*', '"nope"', 'W/"x"', 'garbage', '""', '"a", *'), { freq: 3, nil: undefined })
      : fc.constant(undefined);
  return fc
    .record({
      path: pathArbitrary(op, world),
      query: queryArbitrary(op, document),
      body: bodyArbitrary(op, document, world),
      authorization: authArbitrary(op, world),
      idempotencyKey,
      ifNoneMatch,
      ifMatch,
      accept: fc.option(fc.constantFrom(...ODD_ACCEPT), { freq: 3, nil: undefined }),
      revalidate: fc.boolean(),
    })
    .map((r) => {
      const headers: Record<string, string> = {};
      if (r.authorization !== undefined) headers.authorization = r.authorization;
      if (r.idempotencyKey !== undefined) headers['idempotency-key'] = r.idempotencyKey;
      if (r.ifNoneMatch !== undefined) headers['if-none-match'] = r.ifNoneMatch;
      if (r.ifMatch !== undefined) headers['if-match'] = r.ifMatch;
      if (r.accept !== undefined) headers.accept = r.accept;
      if (r.body.contentType) headers['content-type'] = r.body.contentType;
      // HTTP cannot carry control characters or characters beyond Latin-1 in a header value.
      for (const [name, value] of Object.entries(headers)) headers[name] = value.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?');
      return {
        method: op.method,
        url: `${r.path}${r.query}`,
        headers,
        ...(r.body.payload !== undefined ? { payload: r.body.payload } : {}),
        revalidate: (op.method === 'GET' || op.method === 'PATCH') && r.revalidate,
      };
    });
}

/**
 * Conditional GETs run first, whatever the seed: the operation at a valid path, with a page of a size
 * nothing asked for yet where it is a list, and `If-None-Match: *`, so that the process answers a 304
 * for a representation it has not kept (a read that waits). Such a request once ended the process
 * when its quota was counted in Redis.
 */
export function conditionalRequests(op: Operation, world: World): FuzzRequest[] {
  const valid = world.paths.get(op.path)?.[0] ?? (op.path.includes('{') ? undefined : {});
  if (op.method !== 'GET' || !valid) return [];
  const token = world.tokens.get(op.scope ?? '*') ?? world.tokens.get('*');
  const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}), 'if-none-match': '*' };
  const paged = op.parameters.some((p) => p.in === 'query' && p.name === 'per_page');
  const url = `${fillPath(op, valid)}${paged ? '?sort=id&per_page=37&page=2' : ''}`;
  return [{ method: op.method, url, headers, revalidate: false }];
}
