import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** The committed OpenAPI document: what clients are promised, and so what the fuzzer holds the server to. */
export const DOCUMENT_PATH = new URL('../../openapi/openapi.json', import.meta.url);

export type Schema = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
}

export interface Operation {
  /** `GET /api/v1/users/{user}` */
  key: string;
  method: string;
  path: string;
  operationId?: string;
  parameters: Parameter[];
  /** The request body's media types and their schemas. */
  body: Record<string, Schema> | null;
  /** Documented statuses and, for those with a JSON body, its schema pointer. */
  responses: Record<string, { json: string | null; mediaTypes: string[] }>;
  /** The scope the operation needs, or null for a public one. */
  scope: string | null;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, Schema> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function loadDocument(): OpenApiDocument {
  return JSON.parse(readFileSync(DOCUMENT_PATH, 'utf8')) as OpenApiDocument;
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const responses: Operation['responses'] = {};
      for (const [status, response] of Object.entries(operation.responses ?? {}) as [string, any][]) {
        const content = (response.content ?? {}) as Record<string, unknown>;
        const json = Object.keys(content).find((type) => type.startsWith('application/json'));
        responses[status] = {
          json: json ? `#/paths/${escapePointer(path)}/${method}/responses/${status}/content/${escapePointer(json)}/schema` : null,
          mediaTypes: Object.keys(content),
        };
      }
      const body = operation.requestBody?.content
        ? Object.fromEntries(
            Object.entries(operation.requestBody.content as Record<string, { schema: Schema }>).map(([t, c]) => [t, c.schema]),
          )
        : null;
      const security = (operation.security ?? []) as Record<string, string[]>[];
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        operationId: operation.operationId,
        parameters: [...((item.parameters ?? []) as Parameter[]), ...((operation.parameters ?? []) as Parameter[])],
        body,
        responses,
        scope: security[0]?.bearerAuth?.[0] ?? null,
      });
    }
  }
  return operations;
}

/** Follows a local `$ref` (`#/components/schemas/X`) to the schema it names. */
export function deref(document: OpenApiDocument, schema: Schema): Schema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 16; hops++) {
    const pointer = (current.$ref as string).replace(/^#\//, '').split('/');
    let target: any = document;
    for (const segment of pointer) target = target?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (!target) throw new Error(`Unresolvable $ref ${current.$ref}`);
    current = target as Schema;
  }
  return current;
}

/**
 * Validators of documented response bodies, compiled with Ajv's JSON Schema 2020-12 dialect (the one
 * OpenAPI 3.1 uses). The whole document is registered once, so `$ref`s resolve against it.
 */
export function responseValidators(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats.default(ajv);
  // OpenAPI's own annotation keywords, so that they are not mistaken for typos.
  ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs']);
  const id = 'https://academy.invalid/openapi.json';
  ajv.addSchema(document as unknown as Schema, id);
  const cache = new Map<string, ValidateFunction>();
  return (pointer: string): ValidateFunction => {
    let validate = cache.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `${id}${pointer}` });
      cache.set(pointer, validate);
    }
    return validate;
  };
}
