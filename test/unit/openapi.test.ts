import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { globSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import fastifySwagger from '@fastify/swagger';
import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify, { type FastifyInstance } from 'fastify';
import { documentFile, generateDocument, serialize } from '../../scripts/openapi.ts';
import { openApiOptions } from '../../src/assembly/openapi.ts';
import { ErrorBody } from '../../src/http/schemas.ts';
import type { AcademyModule } from '../../src/modules/manifest.ts';
import { WEBHOOK_EVENT_TYPES } from '../../src/platform/events/types.ts';
import { SCOPES } from '../../src/platform/tokens/scopes.ts';

interface Operation {
  operationId?: string;
  summary?: string;
  security?: Record<string, string[]>[];
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: { $ref?: string } }> }>;
}

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'];

function operations(document: Record<string, any>): { label: string; path: string; operation: Operation }[] {
  return Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([p, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ label: `${method.toUpperCase()} ${p}`, path: p, operation })),
  );
}

interface Named {
  $ref?: string;
  description?: string;
  content?: Record<string, { schema?: { $ref?: string; allOf?: { $ref?: string; properties?: { code?: { enum?: string[] } } }[] } }>;
}

/** The response of `status`, through its `$ref` to `components.responses` where it has one. */
function responseOf(document: Record<string, any>, operation: Operation, status: string): Named | undefined {
  const response = operation.responses?.[status] as Named | undefined;
  return response?.$ref ? document.components.responses[response.$ref.split('/').pop() as string] : response;
}

/** The schema an error response refers to (`Error`, narrowed by its codes). */
function errorRef(document: Record<string, any>, operation: Operation, status: string): string | undefined {
  const schema = responseOf(document, operation, status)?.content?.['application/json']?.schema;
  return schema?.allOf?.[0]?.$ref ?? schema?.$ref;
}

/** The `code` values an error response documents. */
function errorCodes(document: Record<string, any>, operation: Operation, status: string): string[] | undefined {
  return responseOf(document, operation, status)?.content?.['application/json']?.schema?.allOf?.[1]?.properties?.code?.enum;
}

const root = path.resolve(import.meta.dirname, '../..');

describe('OpenAPI document', () => {
  let document: Record<string, any>;

  before(async () => {
    document = await generateDocument();
  });

  test('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    assert.equal(result.valid, true, `invalid OpenAPI document: ${JSON.stringify(result.errors, null, 2)}`);
    assert.equal(validator.version, '3.1');
  });

  test('the committed openapi/openapi.json is what the code generates (run `npm run openapi`)', () => {
    const committed = readFileSync(documentFile, 'utf8');
    assert.equal(committed, serialize(document), 'openapi/openapi.json is out of date: run `npm run openapi` and commit it');
  });

  test('names no machine-specific server', () => {
    for (const server of document.servers ?? []) {
      assert.doesNotMatch(server.url, /^[a-z]+:\/\//i, `server ${server.url} is an absolute URL`);
    }
  });

  test('every /api/v1 operation has an id, a summary, its security and its error responses', () => {
    const v1 = operations(document).filter((o) => o.path.startsWith('/api/v1/'));
    assert.ok(v1.some((o) => o.operation.operationId === 'getOrganization'));
    const ids = new Set<string>();
    for (const { label, operation } of v1) {
      assert.match(operation.operationId ?? '', /^[a-z][A-Za-z0-9]+$/, `${label}: operationId`);
      assert.ok(!ids.has(operation.operationId as string), `${label}: duplicate operationId ${operation.operationId}`);
      ids.add(operation.operationId as string);
      assert.ok(operation.summary?.trim(), `${label}: summary`);
      assert.ok(Array.isArray(operation.security), `${label}: declares neither a scope nor that it is public`);
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        assert.notEqual(response.description, 'Default Response', `${label}: response ${status} has no description`);
      }
      // The statuses the server answers with for bad input are documented where they can occur.
      const parameters = (operation as { parameters?: { in: string }[] }).parameters ?? [];
      const body = (operation as { requestBody?: unknown }).requestBody !== undefined;
      if (parameters.some((p) => p.in === 'path')) assert.ok(operation.responses?.['404'], `${label}: 404 for a missing id`);
      if (body || parameters.some((p) => p.in === 'query')) assert.ok(operation.responses?.['422'], `${label}: 422`);
      if (body) for (const status of ['400', '415']) assert.ok(operation.responses?.[status], `${label}: ${status}`);
      if (operation.security?.length === 0) {
        // Public: no credentials, but rate-limited per client address.
        assert.equal(errorRef(document, operation, '429'), '#/components/schemas/Error', `${label}: 429`);
        continue;
      }
      const scopes = operation.security?.flatMap((requirement) => requirement.bearerAuth ?? []) ?? [];
      assert.equal(scopes.length, 1, `${label}: exactly one bearerAuth scope`);
      assert.ok((SCOPES as readonly string[]).includes(scopes[0] as string), `${label}: unknown scope ${scopes[0]}`);
      for (const status of ['401', '403', '429']) {
        assert.equal(errorRef(document, operation, status), '#/components/schemas/Error', `${label}: ${status} must reference Error`);
      }
    }
  });

  test('the shared schemas are components, and the Error schema matches the error bodies', () => {
    const error = document.components.schemas.Error;
    assert.deepEqual(error.required, ['message', 'code']);
    assert.deepEqual(Object.keys(error.properties), Object.keys(ErrorBody.properties));
    assert.equal(document.components.securitySchemes.bearerAuth.scheme, 'bearer');
  });
  test('every named schema and every operation has an example, and every enum its type', () => {
    for (const [name, schema] of Object.entries(document.components.schemas as Record<string, { examples?: unknown[] }>)) {
      assert.ok(schema.examples?.length, `schema ${name} has no example`);
    }
    const all = [
      ...operations(document),
      ...Object.entries(document.webhooks as Record<string, Record<string, Operation>>).map(([type, item]) => ({
        label: `webhook ${type}`,
        operation: item.post as Operation,
      })),
    ];
    for (const { label, operation } of all) {
      const bodies = Object.values(
        (operation as { requestBody?: { content: Record<string, { example?: unknown }> } }).requestBody?.content ?? {},
      );
      for (const media of bodies) assert.ok(media.example !== undefined, `${label}: request body example`);
      for (const status of Object.keys(operation.responses ?? {})) {
        const response = responseOf(document, operation, status) as { content?: Record<string, { example?: unknown; examples?: object }> };
        for (const [type, media] of Object.entries(response?.content ?? {})) {
          if (type !== 'application/json') continue;
          assert.ok(media.example !== undefined || media.examples !== undefined, `${label}: ${status} has no example`);
        }
      }
    }
    const untyped: string[] = [];
    const walk = (value: unknown, at: string) => {
      if (!value || typeof value !== 'object') return;
      if (!Array.isArray(value) && 'enum' in value && !('type' in value)) untyped.push(at);
      for (const [key, child] of Object.entries(value)) if (key !== 'examples' && key !== 'example') walk(child, `${at}/${key}`);
    };
    walk(document, '#');
    assert.deepEqual(untyped, [], 'enums without a type');
  });

  test('error responses name the codes each can carry; POSTs their idempotency outcomes, PATCHes their 412', () => {
    const byId = new Map(operations(document).map((o) => [o.operation.operationId, o.operation]));
    const op = (id: string) => byId.get(id) as Operation;
    assert.deepEqual(errorCodes(document, op('getCourse'), '401'), ['unauthenticated']);
    assert.deepEqual(errorCodes(document, op('getCourse'), '404'), ['not_found']);
    assert.deepEqual(errorCodes(document, op('listCourses'), '422'), ['validation_failed']);
    assert.deepEqual(errorCodes(document, op('runTask'), '409'), [
      'task_disabled',
      'idempotency_key_in_use',
      'idempotency_key_answer_lost',
    ]);
    assert.deepEqual(errorCodes(document, op('downloadReport'), '409'), ['report_not_available']);
    assert.deepEqual(errorCodes(document, op('transitionWorkflow'), '403'), ['insufficient_scope', 'permission_denied']);
    assert.deepEqual(errorCodes(document, op('createUser'), '409'), ['idempotency_key_in_use', 'idempotency_key_answer_lost']);
    assert.deepEqual(errorCodes(document, op('createUser'), '422'), ['validation_failed', 'idempotency_key_reused']);
    for (const { label, path: p, operation } of operations(document)) {
      const parameters = ((operation as { parameters?: { $ref?: string }[] }).parameters ?? []).map((x) => x.$ref);
      const method = label.split(' ')[0];
      if (method === 'POST' && operation.security?.length) {
        assert.ok(parameters.includes('#/components/parameters/IdempotencyKey'), `${label}: Idempotency-Key`);
        assert.ok(errorCodes(document, operation, '409')?.includes('idempotency_key_in_use'), `${label}: 409 idempotency_key_in_use`);
        assert.ok(
          errorCodes(document, operation, '409')?.includes('idempotency_key_answer_lost'),
          `${label}: 409 idempotency_key_answer_lost`,
        );
      }
      if (method === 'PATCH') {
        assert.deepEqual(errorCodes(document, operation, '412'), ['precondition_failed'], `${label}: 412`);
        assert.ok(parameters.includes('#/components/parameters/IfMatch'), `${label}: If-Match`);
      }
      if (
        method === 'GET' &&
        (operation.responses?.['200']?.content?.['application/json'] || p.endsWith('/documents/{document}/download'))
      ) {
        const unmetered = operation.security?.length === 0 && !operation.responses?.['429'];
        const expected = unmetered ? 'NotModifiedUnmetered' : 'NotModified';
        assert.equal((operation.responses?.['304'] as Named)?.$ref, `#/components/responses/${expected}`, `${label}: 304`);
      }
    }
  });

  test('declares its tags, contact and licence, and a webhook with a payload schema for every delivered event type', () => {
    const declared = new Set((document.tags as { name: string; description?: string }[]).map((t) => t.name));
    for (const tag of document.tags) assert.ok(tag.description, `tag ${tag.name} has no description`);
    for (const { label, operation } of operations(document)) {
      for (const tag of (operation as { tags?: string[] }).tags ?? []) assert.ok(declared.has(tag), `${label}: undeclared tag ${tag}`);
    }
    assert.ok(document.info.contact?.name);
    assert.ok(document.info.license?.name);
    assert.deepEqual(Object.keys(document.webhooks), [...WEBHOOK_EVENT_TYPES]);
    for (const type of WEBHOOK_EVENT_TYPES) {
      const media = document.webhooks[type].post.requestBody.content['application/json'];
      const schema = document.components.schemas[media.schema.$ref.split('/').pop()];
      assert.deepEqual(schema.required, ['id', 'type', 'version', 'occurred_at', 'payload'], type);
      assert.equal(schema.properties.type.const, type);
      assert.equal(media.example.type, type);
    }
  });

  test('a nullable enum lists null among its values, so that a null value matches the document', () => {
    const nullableEnums: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (Array.isArray(node)) {
        for (const [i, item] of node.entries()) walk(item, `${at}/${i}`);
      } else if (node && typeof node === 'object') {
        const { type, enum: values } = node as { type?: unknown; enum?: unknown[] };
        if (Array.isArray(type) && type.includes('null') && Array.isArray(values)) {
          nullableEnums.push(at);
          assert.ok(values.includes(null), `${at}: null is allowed by its type but not by its enum`);
        }
        for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key}`);
      }
    };
    walk(document.components.schemas, '#/components/schemas');
    assert.ok(nullableEnums.includes('#/components/schemas/Task/properties/last_outcome'), nullableEnums.join(', '));
  });
});

/** The document of a bare app with `routes` and the kit's options over `modules`. */
async function documentOf(modules: readonly AcademyModule[], routes: (app: FastifyInstance) => void): Promise<Record<string, any>> {
  const app = Fastify();
  app.addSchema(ErrorBody);
  await app.register(fastifySwagger, openApiOptions(modules));
  routes(app);
  await app.ready();
  try {
    return app.swagger() as Record<string, any>;
  } finally {
    await app.close();
  }
}

describe('OpenAPI generation details', () => {
  test('a public route is documented with no security and its 429', async () => {
    const document = await documentOf([], (app) => {
      app.get('/api/v1/things/:token', {
        config: { access: { public: 'public' } },
        schema: { operationId: 'verifyThing', summary: 'Verify', response: { 200: { type: 'object' } } },
        handler: async () => ({}),
      });
    });
    const operation = document.paths['/api/v1/things/{token}'].get as Operation;
    assert.deepEqual(operation.security, []);
    assert.equal(errorRef(document, operation, '429'), '#/components/schemas/Error');
    assert.deepEqual(errorCodes(document, operation, '429'), ['rate_limited']);
    assert.equal(operation.responses?.['200']?.description, 'Success');
  });

  test('a route declares its error codes and Location in its config, and the document reads them there', async () => {
    const document = await documentOf([], (app) => {
      app.get('/api/v1/things/:thing', {
        config: { access: { public: 'public' }, errors: { 409: ['report_not_available'] } },
        schema: { operationId: 'getThing', summary: 'Get', response: { 200: { type: 'object' }, 409: { $ref: 'Error' } } },
        handler: async () => ({}),
      });
      // A declared status needs no response of its own in the schema.
      app.post('/api/v1/things', {
        config: {
          access: { public: 'public' },
          errors: { 403: ['permission_denied'], 409: ['conflict', 'invalid_transition'] },
          location: true,
        },
        schema: { operationId: 'createThing', summary: 'Create', response: { 201: { type: 'object' } } },
        handler: async () => ({}),
      });
    });
    const get = document.paths['/api/v1/things/{thing}'].get as Operation;
    const post = document.paths['/api/v1/things'].post as Operation;
    assert.deepEqual(errorCodes(document, get, '409'), ['report_not_available']);
    assert.deepEqual(errorCodes(document, post, '409'), ['conflict', 'invalid_transition']);
    // Declared codes come after the status's defaults.
    assert.deepEqual(errorCodes(document, post, '403'), ['insufficient_scope', 'permission_denied']);
    const headers = (operation: Operation, status: string) =>
      Object.keys((operation.responses?.[status] as { headers?: object } | undefined)?.headers ?? {});
    assert.ok(headers(post, '201').includes('Location'), 'createThing 201: Location');
    assert.ok(!headers(get, '200').includes('Location'), 'getThing 200: no Location');
    // The facts reach the document as its content, not as extensions of their own.
    assert.deepEqual(
      [get, post].flatMap((operation) => Object.keys(operation).filter((key) => key.startsWith('x-'))),
      [],
    );
  });

  test("a named schema's example comes from its module's manifest; one without fails the document", async () => {
    const routes = (app: FastifyInstance) => {
      app.addSchema({ $id: 'Thing', type: 'object', properties: { name: { type: 'string' } } });
      app.get('/api/v1/things', {
        config: { access: 'open' },
        schema: { operationId: 'getThings', summary: 'Get', response: { 200: { $ref: 'Thing' } } },
        handler: async () => ({}),
      });
    };
    const things: AcademyModule = { name: 'things', examples: { Thing: { name: 'Blue thing' } } };
    const document = await documentOf([things], routes);
    assert.deepEqual(document.components.schemas.Thing.examples, [{ name: 'Blue thing' }]);
    assert.deepEqual(document.paths['/api/v1/things'].get.responses['200'].content['application/json'].example, { name: 'Blue thing' });
    await assert.rejects(documentOf([], routes), /the schema Thing has no example/);
    await assert.rejects(documentOf([things, { ...things, name: 'others' }], routes), /others gives the schema Thing a second example/);
  });

  test('the assembly and the metrics read the modules through their manifests, importing no module schema or repository', () => {
    const offenders = globSync('src/http/**/*.ts').filter((file) =>
      /from '\.\.\/modules\/[^']+\/(schemas|repository)\.ts'/.test(readFileSync(file, 'utf8')),
    );
    assert.deepEqual(offenders, []);
  });
});

describe('npm run openapi:check', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'academy-openapi-check-'));
  const file = path.join(dir, 'openapi.json');
  after(() => rmSync(dir, { recursive: true, force: true }));

  function check() {
    return spawnSync(process.execPath, ['scripts/openapi.ts', '--check', '--file', file], { cwd: root, encoding: 'utf8' });
  }

  test('fails with the first differing line when the file is stale, passes once regenerated', () => {
    const current = readFileSync(documentFile, 'utf8');
    writeFileSync(file, current.replace('"summary": "Get the organization settings"', '"summary": "Old summary"'));
    const stale = check();
    assert.equal(stale.status, 1, stale.stderr);
    assert.match(stale.stderr, /is out of date/);
    assert.match(stale.stderr, /committed: +"summary": "Old summary"/);
    assert.match(stale.stderr, /npm run openapi/);

    const write = spawnSync(process.execPath, ['scripts/openapi.ts', '--file', file], { cwd: root, encoding: 'utf8' });
    assert.equal(write.status, 0, write.stderr);
    const fresh = check();
    assert.equal(fresh.status, 0, fresh.stderr);
    assert.match(fresh.stdout, /is up to date/);
  });

  test('fails clearly when the file is missing', () => {
    rmSync(file, { force: true });
    const missing = check();
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /is missing/);
  });
});
