import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import fastifySwagger from '@fastify/swagger';
import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify from 'fastify';
import { documentFile, generateDocument, serialize } from '../../scripts/openapi.ts';
import { openApiOptions } from '../../src/http/openapi.ts';
import { ErrorBody } from '../../src/http/schemas.ts';
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

function errorRef(operation: Operation, status: string): string | undefined {
  return operation.responses?.[status]?.content?.['application/json']?.schema?.$ref;
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
        assert.equal(errorRef(operation, '429'), '#/components/schemas/Error', `${label}: 429`);
        continue;
      }
      const scopes = operation.security?.flatMap((requirement) => requirement.bearerAuth ?? []) ?? [];
      assert.equal(scopes.length, 1, `${label}: exactly one bearerAuth scope`);
      assert.ok((SCOPES as readonly string[]).includes(scopes[0] as string), `${label}: unknown scope ${scopes[0]}`);
      for (const status of ['401', '403', '429']) {
        assert.equal(errorRef(operation, status), '#/components/schemas/Error', `${label}: ${status} must reference Error`);
      }
    }
  });

  test('the shared schemas are components, and the Error schema matches the error bodies', () => {
    const error = document.components.schemas.Error;
    assert.deepEqual(error.required, ['message', 'code']);
    assert.deepEqual(Object.keys(error.properties), Object.keys(ErrorBody.properties));
    assert.equal(document.components.securitySchemes.bearerAuth.scheme, 'bearer');
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

describe('OpenAPI generation details', () => {
  test('a public route is documented with no security and its 429', async () => {
    const app = Fastify();
    app.addSchema(ErrorBody);
    await app.register(fastifySwagger, openApiOptions);
    app.get('/api/v1/things/:token', {
      config: { access: { public: 'public' } },
      schema: { operationId: 'verifyThing', summary: 'Verify', response: { 200: { type: 'object' } } },
      handler: async () => ({}),
    });
    await app.ready();
    const operation = (app.swagger() as any).paths['/api/v1/things/{token}'].get as Operation;
    await app.close();
    assert.deepEqual(operation.security, []);
    assert.equal(errorRef(operation, '429'), '#/components/schemas/Error');
    assert.equal(operation.responses?.['200']?.description, 'Success');
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
