import type { FastifyInstance } from 'fastify';

/** Most values (object members and array items, at any depth) one JSON body may hold. */
export const MAX_BODY_VALUES = 10_000;

interface Issue {
  instancePath: string;
  keyword: string;
  message: string;
  params: Record<string, unknown>;
}

/** Shaped as Fastify's schema validation errors, so that they map to a 422 (a 404 for path params) in the same place. */
class InputError extends Error {
  readonly validation: Issue[];
  readonly validationContext: string;

  constructor(context: string, validation: Issue[]) {
    super('invalid input');
    this.validationContext = context;
    this.validation = validation;
  }
}

/**
 * Finds the strings (values and member names) that hold a NUL character, and whether there are more
 * than `maxValues` values. Iterative, so that a deeply nested body cannot overflow the stack, and it
 * stops once the count is exceeded, so that an oversized body costs little.
 */
function inspect(root: unknown, maxValues: number): Issue[] {
  const issues: Issue[] = [];
  const pending: [unknown, string][] = [[root, '']];
  let values = 0;
  for (let i = 0; i < pending.length; i++) {
    const [value, path] = pending[i] as [unknown, string];
    if (typeof value === 'string') {
      if (value.includes('\0')) issues.push(nul(path));
    } else if (Array.isArray(value)) {
      values += value.length;
      if (values > maxValues) return [tooMany(maxValues)];
      for (const [index, item] of value.entries()) pending.push([item, `${path}/${index}`]);
    } else if (typeof value === 'object' && value !== null) {
      for (const key in value) {
        if (++values > maxValues) return [tooMany(maxValues)];
        if (key.includes('\0')) issues.push(nul(path));
        else pending.push([(value as Record<string, unknown>)[key], `${path}/${key}`]);
      }
    }
  }
  return issues;
}

const nul = (instancePath: string): Issue => ({ instancePath, keyword: 'nul', message: 'must not contain a NUL character', params: {} });

const tooMany = (maxValues: number): Issue => ({
  instancePath: '',
  keyword: 'maxValues',
  message: `must not hold more than ${maxValues} values`,
  params: {},
});

/**
 * Whether `value` is an object of strings and numbers without a NUL character, as a path's
 * parameters and most query strings are: then it needs no walk (and allocates nothing).
 */
function flatAndClean(value: unknown, maxValues: number): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  let values = 0;
  for (const key in value) {
    if (++values > maxValues || key.includes('\0')) return false;
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === 'string' ? item.includes('\0') : typeof item !== 'number' && item !== undefined) return false;
  }
  return true;
}

function check(context: string, value: unknown, maxValues: number): InputError | undefined {
  if (value === undefined || value === null || flatAndClean(value, maxValues)) return undefined;
  const issues = inspect(value, maxValues);
  return issues.length ? new InputError(context, issues) : undefined;
}

/**
 * Input no schema should have to repeat, checked for every route before schema validation: a NUL
 * character in any string of the body, query or path (PostgreSQL cannot store one in text, and
 * systems that receive the data may cut strings at it) is a 422 naming the field, or a 404 in a
 * path, which then addresses nothing; a body of more than MAX_BODY_VALUES values is a 422 before the
 * validator spends time on each of them.
 */
export function registerInputChecks(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    done(
      check('params', request.params, Number.POSITIVE_INFINITY) ??
        check('querystring', request.query, Number.POSITIVE_INFINITY) ??
        check('body', request.body, MAX_BODY_VALUES),
    );
  });
}

/** A compiled Ajv validator as Fastify calls it. */
export interface Validator {
  (data: unknown, context?: unknown): unknown;
  errors?: unknown;
  schemaEnv?: unknown;
}

/**
 * Wraps the validator of a query string, path or headers so that a number coerced from text must be
 * finite. Ajv turns `"1e309"` or `"Infinity"` into `Infinity`, accepts it as an integer and skips
 * `minimum` and `maximum` for it, so that it would reach the database (where PostgreSQL refuses it).
 * Such a value is a 422 naming the field (a 404 in a path), like any other invalid value.
 */
export function finiteNumbers(validate: Validator): Validator {
  const checked: Validator = (data, context) => {
    const valid = context === undefined ? validate(data) : validate(data, context);
    if (valid !== true) {
      checked.errors = validate.errors;
      return valid;
    }
    const issues = nonFiniteNumbers(data);
    checked.errors = issues.length ? issues : null;
    return issues.length === 0;
  };
  if (validate.schemaEnv) checked.schemaEnv = validate.schemaEnv;
  return checked;
}

/** Where `root` (coerced query string, path or headers: a few levels at most) holds a non-finite number. */
function nonFiniteNumbers(root: unknown): Issue[] {
  const issues: Issue[] = [];
  const pending: [unknown, string][] = [[root, '']];
  for (let i = 0; i < pending.length; i++) {
    const [value, path] = pending[i] as [unknown, string];
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) issues.push({ instancePath: path, keyword: 'finite', message: 'must be a finite number', params: {} });
    } else if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) pending.push([item, `${path}/${index}`]);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) pending.push([item, `${path}/${key}`]);
    }
  }
  return issues;
}
