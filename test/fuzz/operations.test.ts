// Schema-driven fuzzing of every operation of the committed OpenAPI document, over the demo academy.
//
//   npm test -- test/fuzz/operations.test.ts          a short, fixed seed (part of the normal suite)
//   npm run fuzz                                       a long run with a fresh seed
//   FUZZ_SEED=123 FUZZ_RUNS=500 npm test -- test/fuzz/operations.test.ts      replay a run
//   FUZZ_ONLY='POST /api/v1/users' FUZZ_SEED=… FUZZ_PATH=… npm test -- …     replay one failure
//   (FUZZ_ONLY is one operation's key, as a failure prints it, or a part of several keys)
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { seedDemo } from '../../src/modules/demo/seed.ts';
import { dialect, redisUrl } from '../support/env.ts';
import { eventually } from '../support/eventually.ts';
import { fixtures } from '../support/fixtures.ts';
import { createTestApp, type TestApp } from '../support/platform.ts';
import { loadDocument, type Operation, operationsOf, responseValidators } from './document.ts';
import { conditionalRequests, type FuzzRequest, requestArbitrary, unknownIdRequests, type World } from './requests.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_601);
const ONLY = process.env.FUZZ_ONLY;
const PATH = process.env.FUZZ_PATH;
/** Prints every request and its status (with the error body), to see what a run exercises. */
const VERBOSE = process.env.FUZZ_VERBOSE === '1';
/** Longer than any sane answer on a busy machine; an answer that takes longer counts as a hang. */
const REQUEST_TIMEOUT_MS = Number(process.env.FUZZ_REQUEST_TIMEOUT_MS ?? 10_000);
const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
/** What must never reach a client: stack frames, file paths, SQL and driver errors. */
const LEAKS = /\bat [\w.<>]+ \(|\/node_modules\/|\.ts:\d+|\bSQLITE_|\bselect .* from\b|\bsyntax error at or near\b|\/tmp\//i;

const document = loadDocument();
const operations = ((all) => {
  if (!ONLY) return all;
  // A key as a failure's replay line prints it is that operation alone, not also the ones below its path.
  const exact = all.filter((op) => op.key === ONLY);
  return exact.length ? exact : all.filter((op) => op.key.includes(ONLY));
})(operationsOf(document));
const validator = responseValidators(document);
const validateError = validator('#/components/schemas/Error');

/** The per-operation seed: stable whichever operations a run selects. */
function seedOf(op: Operation): number {
  let hash = SEED | 0;
  for (const char of op.key) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

let app: TestApp;
let world: World;
let clientAddress = 0;
const covered = new Map<string, Map<number, number>>();

async function send(request: Omit<FuzzRequest, 'revalidate'>): Promise<Answer> {
  clientAddress += 1;
  // A fresh client address per request keeps the per-address limits of anonymous callers out of the way.
  const remoteAddress = `10.${(clientAddress >> 16) & 255}.${(clientAddress >> 8) & 255}.${clientAddress & 255}`;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)), REQUEST_TIMEOUT_MS);
  });
  try {
    const response = await Promise.race([
      app.http.inject({
        method: request.method as 'GET',
        url: request.url,
        headers: request.headers,
        remoteAddress,
        ...(request.payload !== undefined ? { payload: request.payload } : {}),
      }),
      timeout,
    ]);
    return { status: response.statusCode, headers: response.headers, body: response.body };
  } finally {
    clearTimeout(timer);
  }
}

/** Everything wrong with one answer, measured against what the document promises for the operation. */
function problemsOf(op: Operation, answer: Answer): string[] {
  const problems: string[] = [];
  const documented = op.responses[String(answer.status)];
  if (answer.status >= 500 && !(answer.status === 503 && documented)) problems.push(`server error ${answer.status}`);
  if (!documented)
    problems.push(`status ${answer.status} is not documented for ${op.key} (documented: ${Object.keys(op.responses).join(', ')})`);
  const contentType = String(answer.headers['content-type'] ?? '');
  if (answer.status === 304) {
    if (answer.body !== '') problems.push('a 304 has a body');
    return problems;
  }
  const json = contentType.startsWith('application/json');
  let body: unknown;
  if (json) {
    try {
      body = JSON.parse(answer.body);
    } catch {
      problems.push(`a body that is not JSON under ${contentType}`);
      return problems;
    }
  }
  if (answer.status >= 400) {
    if (!json) problems.push(`an error with content type "${contentType}"`);
    else if (!validateError(body)) problems.push(`an error body not of the contract's shape: ${JSON.stringify(validateError.errors)}`);
    else if (!SNAKE_CASE.test((body as { code: string }).code))
      problems.push(`an error code that is not snake_case: ${(body as { code: string }).code}`);
    if (LEAKS.test(answer.body)) problems.push('an error body that leaks internals');
  }
  if (documented?.json) {
    if (!json) problems.push(`content type "${contentType}" where JSON is documented`);
    else {
      const validate = validator(documented.json);
      if (!validate(body))
        problems.push(`a body that does not match the documented ${answer.status} schema: ${JSON.stringify(validate.errors?.slice(0, 5))}`);
    }
  } else if (documented && documented.mediaTypes.length === 0 && answer.body !== '' && answer.status < 400) {
    problems.push(`a body where none is documented for ${answer.status}`);
  }
  return problems;
}

function describeRequest(request: Omit<FuzzRequest, 'revalidate'>): string {
  const payload = request.payload === undefined ? '' : `\n  body: ${String(request.payload).slice(0, 400)}`;
  return `${request.method} ${request.url}\n  headers: ${JSON.stringify(request.headers).slice(0, 600)}${payload}`;
}

async function exercise(op: Operation, request: FuzzRequest): Promise<void> {
  const count = (status: number) => {
    const statuses = covered.get(op.key) ?? new Map<number, number>();
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    covered.set(op.key, statuses);
  };
  const check = async (sent: Omit<FuzzRequest, 'revalidate'>) => {
    let answer: Answer;
    try {
      answer = await send(sent);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${describeRequest(sent)}`);
    }
    count(answer.status);
    if (VERBOSE)
      console.log(
        `${answer.status} ${sent.method} ${sent.url.slice(0, 200)}${answer.status >= 400 ? ` ${answer.body.slice(0, 200)}` : ''}`,
      );
    const problems = problemsOf(op, answer);
    if (problems.length) {
      throw new Error(`${problems.join('\n')}\n${describeRequest(sent)}\n  answer: ${answer.status} ${answer.body.slice(0, 600)}`);
    }
    return answer;
  };
  if (request.method === 'PATCH' && request.revalidate) {
    // The resource's real ETag, read as the same caller: an If-Match that holds (unless the body is refused).
    const current = await send({ method: 'GET', url: request.url.split('?')[0] as string, headers: { ...request.headers } });
    const etag = current.headers.etag;
    if (current.status === 200 && typeof etag === 'string') {
      await check({ ...request, headers: { ...request.headers, 'if-match': etag } });
      return;
    }
  }
  const answer = await check(request);
  const etag = answer.headers.etag;
  if (request.method === 'GET' && request.revalidate && answer.status === 200 && typeof etag === 'string') {
    await check({ ...request, headers: { ...request.headers, 'if-none-match': etag } });
  }
}

/** Valid path parameters for every operation, found by listing what the demo academy holds. */
async function crawl(star: string): Promise<Map<string, Record<string, string>[]>> {
  const get = async (url: string): Promise<any> => {
    const response = await app.http.inject({ method: 'GET', url, headers: { authorization: `Bearer ${star}` } });
    assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
    return response.json().data;
  };
  const found = new Map<string, Record<string, string>[]>();
  const fill = (path: string, params: Record<string, string>) => path.replace(/\{(\w+)\}/g, (_, n: string) => params[n] ?? '');
  // Each template's parameter sets, shortest paths first: a nested list is read under each of a few parents.
  // Every operation's, whichever FUZZ_ONLY selects: a nested path's parents are found through their
  // own templates, and a replay must draw from the same parameter sets as the run it replays.
  const templates = [...new Set(operationsOf(document).map((op) => op.path.replace(/(\{\w+\})(\/[a-z_]+)+$/, '$1')))]
    .filter((p) => p.endsWith('}'))
    .sort((a, b) => a.split('/').length - b.split('/').length);
  for (const template of templates) {
    const [, parent, name] = /^(.*)\/\{(\w+)\}$/.exec(template) as unknown as [string, string, string];
    const parentTemplate = parent.replace(/\/[a-z_]+$/, '');
    const parents = parent.includes('{') ? (found.get(parentTemplate) ?? []).slice(0, 4) : [{}];
    const sets: Record<string, string>[] = [];
    for (const parentParams of parents) {
      let values: string[];
      if (template.endsWith('/verify/{certificate}')) {
        values = (await get('/api/v1/certificates?per_page=100')).map((c: any) => c.verification_token);
      } else if (template.endsWith('/health/{check}')) {
        values = (await get('/api/v1/health')).checks.map((c: any) => c.name);
      } else if (template.endsWith('/runs/{run}')) {
        values = (await get(fill(parentTemplate, parentParams))).recent_runs.map((r: any) => String(r.id));
      } else {
        values = (await get(`${fill(parent, parentParams)}?per_page=100`)).map((item: any) => String(item.slug ?? item.id));
      }
      for (const value of values.slice(0, 25)) sets.push({ ...parentParams, [name]: value });
    }
    found.set(template, sets);
  }
  for (const op of operations) {
    if (!found.has(op.path)) found.set(op.path, found.get(op.path.replace(/(\{\w+\})(\/[a-z_]+)+$/, '$1')) ?? []);
  }
  return found;
}

/**
 * On PostgreSQL, with Redis when the suite has one (TEST_REDIS=1): the rate limits are then counted in
 * Redis, so each request's access check waits on it, as in a multi-node deployment. A conditional GET
 * through that path once ended the process; this pass is the one that sends it.
 */
const withRedis = dialect === 'postgres' && process.env.TEST_REDIS === '1';
const redisPrefix = `academy-fuzz-${process.pid}-${randomBytes(4).toString('hex')}`;

before(async () => {
  const redis: Record<string, string> = withRedis ? { REDIS_URL: redisUrl, ACADEMY_REDIS_PREFIX: redisPrefix } : {};
  app = await createTestApp({ env: { ACADEMY_RATE_LIMIT_PER_MINUTE: '100000000', ...redis } });
  if (withRedis) await eventually(async () => app.platform.redis?.status === 'ready', { what: 'Redis to be ready', timeoutMs: 10_000 });
  const seeded = await seedDemo(app.platform, app.services);
  assert.ok(seeded.seeded && seeded.token);
  const star = seeded.token;
  // What the demo academy does not hold: documents, reports, workflows, notifications, integration messages, task runs.
  const make = fixtures(app.platform);
  const approver = await make.staff({ permissions: JSON.stringify(['courses.approve', 'documents.approve']) });
  const tokens = new Map<string, string>([['*', star]]);
  for (const scope of new Set(operations.map((op) => op.scope).filter((s): s is string => s !== null))) {
    // Workflow decisions act as a staff user who holds the permissions, so that transitions can succeed.
    tokens.set(scope, await app.token([scope], scope.startsWith('workflows:') ? { userEmail: approver.email } : {}));
  }
  const post = async (url: string, payload: unknown, headers: Record<string, string> = {}) => {
    const response = await app.http.inject({
      method: 'POST',
      url,
      payload: payload as string,
      headers: { authorization: `Bearer ${star}`, ...headers },
    });
    assert.ok(response.statusCode < 300, `${url}: ${response.statusCode} ${response.body}`);
    return response.json().data;
  };
  const user = await post('/api/v1/users', { name: 'Fuzz Staff', email: 'fuzz.staff@example.org' });
  await post(`/api/v1/users/${user.id}/invite`, undefined);
  await post('/api/v1/reports', { type: 'enrolments' });
  const boundary = 'seed';
  await post(
    '/api/v1/documents',
    `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nprofile_document\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4\n%%EOF\n\r\n--${boundary}--\r\n`,
    { 'content-type': `multipart/form-data; boundary=${boundary}` },
  );
  await make.workflow();
  await make.workflow({ workflow: 'document_approval', subject_type: 'document' });
  await make.integrationMessage();
  await make.integrationMessage({ status: 'failed' });
  await make.taskRun();
  const paths = await crawl(star);
  // The acting user of the workflow tokens is not suspended or archived along the way.
  for (const [path, sets] of paths)
    paths.set(
      path,
      sets.filter((set) => set.user !== String(approver.id)),
    );
  const ids = [
    ...new Set(
      [...paths.values()]
        .flatMap((sets) => sets.flatMap((s) => Object.values(s)))
        .map(Number)
        .filter(Number.isInteger),
    ),
  ];
  world = {
    paths,
    ids,
    tokens,
    otherToken: (scope) => tokens.get(scope === 'health:read' ? 'courses:read' : 'health:read') as string,
  };
});

after(async () => {
  if (!withRedis) return;
  const redis = new Redis(redisUrl);
  const keys = await redis.keys(`${redisPrefix}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

describe(`every operation of the OpenAPI document, fuzzed (seed ${SEED}, ${RUNS} runs each)`, () => {
  for (const op of operations) {
    test(op.key, { timeout: Math.max(120_000, RUNS * 2_000) }, async () => {
      const seed = seedOf(op);
      await fc
        .assert(
          fc.asyncProperty(requestArbitrary(op, document, world), (request) => exercise(op, request)),
          {
            seed,
            numRuns: RUNS,
            endOnFailure: false,
            examples: [...conditionalRequests(op, world), ...unknownIdRequests(op, world)].map((request): [FuzzRequest] => [request]),
            ...(PATH ? { path: PATH } : {}),
          },
        )
        .catch((error: Error) => {
          const path = /path: "([^"]+)"/.exec(error.message)?.[1];
          const cause = error.cause instanceof Error ? `\n${error.cause.message}` : '';
          throw new Error(
            `${error.message}${cause}\nReplay: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} FUZZ_ONLY='${op.key}'${path ? ` FUZZ_PATH=${path}` : ''} npm test -- test/fuzz/operations.test.ts`,
          );
        });
    });
  }

  test('covers every operation of the document', () => {
    const expected = ONLY ? operations.length : operationsOf(document).length;
    const summary = [...covered].map(
      ([key, statuses]) =>
        `${key}: ${[...statuses]
          .sort(([a], [b]) => a - b)
          .map(([s, n]) => `${s}×${n}`)
          .join(' ')}`,
    );
    console.log(`fuzz: seed ${SEED}, ${RUNS} runs per operation; replay with FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}\n${summary.join('\n')}`);
    console.log(`fuzz: ${covered.size} of ${expected} operations covered (${dialect}${withRedis ? ' with Redis' : ''})`);
    assert.equal(covered.size, expected);
  });
});
