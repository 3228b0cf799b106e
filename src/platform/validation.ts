import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import formatsPlugin from 'ajv-formats';
import { type Static, type TSchema, Type } from 'typebox';
import { checkEmail, EMAIL_MAX } from './email.ts';
import { ValidationError } from './errors.ts';

/**
 * One validator for every input: the body of an HTTP write, `academy admin … --data` and the
 * console's forms are checked against the operation's one TypeBox schema, through an Ajv configured
 * alike (`configureAjv`), and every failure reads the same (`validationError`): plain English, one
 * entry per invalid field, every invalid field named (up to MAX_REPORTED_FIELDS).
 *
 * Rules that need code (an email address's, a time zone's) are formats registered here, so a schema
 * states them and the OpenAPI document shows them.
 */

/** At most this many fields are reported in one 422: a body of thousands of unknown keys would otherwise get an error body many times its size. */
export const MAX_REPORTED_FIELDS = 20;

const timeZones = new Set(Intl.supportedValuesOf('timeZone'));
const currencies = new Set(Intl.supportedValuesOf('currency'));

/** An IANA time zone name (or an alias Intl resolves, such as `US/Eastern`). */
export function isTimeZone(value: string): boolean {
  if (timeZones.has(value) || value === 'UTC') return true;
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

function isLocale(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}

/** Formats of this project, each with the clause its failure reads as (after "The <field> field "). */
const FORMATS: Record<string, { validate: (value: string) => boolean; clause: string }> = {
  // One line of text with something in it: no line breaks or control characters, not only spaces.
  // (An empty value is left to minLength, so that it is told once.)
  line: {
    validate: (value) => value === '' || (/\S/.test(value) && !/\p{Cc}/u.test(value)),
    clause: 'must be one line of text, not blank',
  },
  // Text that is not blank (line breaks allowed, other control characters not).
  text: {
    validate: (value) => value === '' || (/\S/.test(value) && !/(?![\t\n\r])\p{Cc}/u.test(value)),
    clause: 'must not be blank',
  },
  'email-address': {
    validate: (value) => checkEmail(value).ok,
    clause: `must be one email address (at most ${EMAIL_MAX} characters, no spaces, quotes, angle brackets or invisible characters), e.g. ada@example.org`,
  },
  timezone: { validate: isTimeZone, clause: 'must be an IANA time zone, such as Europe/Berlin' },
  currency: { validate: (value) => currencies.has(value), clause: 'must be an ISO 4217 currency code, such as EUR' },
  locale: { validate: isLocale, clause: 'must be a BCP 47 language tag, such as en-GB' },
  // A form field (multipart or urlencoded: text) naming a row: its id, or empty or `null` for none.
  'form-id': {
    validate: (value) => {
      const text = value.trim();
      return text === '' || text === 'null' || (/^[1-9]\d{0,9}$/.test(text) && Number(text) <= 2_147_483_647);
    },
    clause: 'must be a positive whole number id (or empty, for none)',
  },
};

const STANDARD_FORMATS: Record<string, string> = {
  date: 'must be a date written YYYY-MM-DD',
  'date-time': 'must be an RFC 3339 date-time with a time zone, e.g. 2027-01-11T09:00:00Z',
  uri: 'must be an absolute URL',
  uuid: 'must be a UUID',
  email: 'must be an email address',
};

/** Adds this project's formats and the `x-message` annotation to an Ajv instance (Fastify's too, as a plugin). */
export function configureAjv<A extends Ajv>(ajv: A): A {
  // The standard formats (date, date-time, uri…): Fastify's compiler adds them itself. ajv-formats is
  // CommonJS: its module object is the plugin.
  if (!ajv.getKeyword('formatMaximum')) (formatsPlugin as unknown as (ajv: Ajv) => Ajv)(ajv);
  for (const [name, format] of Object.entries(FORMATS)) ajv.addFormat(name, { type: 'string', validate: format.validate });
  // A schema's own wording of its rule (a pattern's meaning), used when the rule fails.
  if (!ajv.getKeyword('x-message')) ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
  return ajv;
}

/** The options every input validator shares (Fastify's body validator sets the same ones). */
export const INPUT_OPTIONS: Options = {
  allErrors: true,
  // The failing schema is kept with each error, so that a pattern's `x-message` can be read.
  verbose: true,
  coerceTypes: false,
  useDefaults: true,
  removeAdditional: false,
};

interface Issue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
  parentSchema?: Record<string, unknown>;
}

function fieldOf(issue: Issue, root: string): string {
  const path = issue.instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
  const missing = issue.params.missingProperty;
  if (issue.keyword === 'required' && typeof missing === 'string') return path ? `${path}.${missing}` : missing;
  const extra = issue.params.additionalProperty;
  if (issue.keyword === 'additionalProperties' && typeof extra === 'string') return path ? `${path}.${extra}` : extra;
  return path || root;
}

const TYPES: Record<string, string> = {
  string: 'text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
};

const characters = (n: unknown) => `${n} character${n === 1 ? '' : 's'}`;

/** What is wrong with a field, after "The <field> field ". */
function clauseOf(issue: Issue): string {
  const own = issue.parentSchema?.['x-message'];
  switch (issue.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not recognised';
    case 'enum':
      return `must be one of: ${(issue.params.allowedValues as unknown[]).join(', ')}`;
    case 'type': {
      const types = String(issue.params.type).split(',');
      return `must be ${types.map((type) => TYPES[type] ?? type).join(' or ')}`;
    }
    case 'minLength':
      return issue.params.limit === 1 ? 'must not be empty' : `must be at least ${characters(issue.params.limit)} long`;
    case 'maxLength':
      return `must be at most ${characters(issue.params.limit)} long`;
    case 'minimum':
      return `must be at least ${issue.params.limit}`;
    case 'maximum':
      return `must be at most ${issue.params.limit}`;
    case 'exclusiveMinimum':
      return `must be more than ${issue.params.limit}`;
    case 'exclusiveMaximum':
      return `must be less than ${issue.params.limit}`;
    case 'minItems':
      return issue.params.limit === 1 ? 'must not be an empty list' : `must hold at least ${issue.params.limit} items`;
    case 'maxItems':
      return `must hold at most ${issue.params.limit} items`;
    case 'uniqueItems':
      return 'must not hold the same item twice';
    case 'multipleOf':
      return `must be a multiple of ${issue.params.multipleOf}`;
    case 'pattern':
      return typeof own === 'string' ? own : 'is not in the expected form';
    case 'format': {
      const format = String(issue.params.format);
      return typeof own === 'string' ? own : (FORMATS[format]?.clause ?? STANDARD_FORMATS[format] ?? `must be a valid ${format}`);
    }
    case 'minProperties':
      return 'must not be empty';
    default:
      return typeof own === 'string' ? own : (issue.message ?? 'is invalid');
  }
}

/** Validation failures as the contract's 422: every invalid field (up to MAX_REPORTED_FIELDS), in plain English. */
export function validationError(issues: readonly (ErrorObject | Issue)[], root = 'body'): ValidationError {
  const errors: Record<string, string[]> = {};
  // A union of literals fails once per literal (`const`); together they say "one of".
  const allowed = new Map<string, unknown[]>();
  const fields = new Set<string>();
  let omitted = false;
  for (const issue of issues as Issue[]) {
    // Union schemas (anyOf) report every branch; the summary line is enough.
    if (issue.keyword === 'anyOf' || issue.keyword === 'oneOf' || issue.keyword === 'if') continue;
    const field = fieldOf(issue, root);
    if (!fields.has(field)) {
      if (fields.size === MAX_REPORTED_FIELDS) {
        omitted = true;
        break;
      }
      fields.add(field);
    }
    if (issue.keyword === 'const') {
      allowed.set(field, [...(allowed.get(field) ?? []), issue.params.allowedValue]);
      continue;
    }
    errors[field] ??= [];
    const message = `The ${field} field ${clauseOf(issue)}.`;
    if (!errors[field].includes(message)) errors[field].push(message);
  }
  for (const [field, values] of allowed) {
    errors[field] ??= [];
    errors[field].push(`The ${field} field must be one of: ${values.join(', ')}.`);
  }
  // A nullable field (a union with null) that fails its other branch also fails `type: null`: that
  // branch says nothing the other message does not.
  for (const [field, messages] of Object.entries(errors)) {
    const meant = messages.filter((message) => message !== `The ${field} field must be null.`);
    if (meant.length > 0) errors[field] = meant;
    else if (Object.keys(errors).some((other) => other.startsWith(`${field}.`))) delete errors[field];
  }
  if (omitted) errors._ = [`More fields are invalid; only the first ${MAX_REPORTED_FIELDS} are listed.`];
  return new ValidationError(Object.keys(errors).length ? errors : { _: ['The input is invalid.'] });
}

const ajv = configureAjv(new Ajv(INPUT_OPTIONS));
const compiled = new WeakMap<TSchema, ValidateFunction>();

/**
 * Checks `data` against `schema` as an HTTP body is checked (no type coercion, defaults applied) and
 * returns it typed, or throws the same ValidationError the API answers with. For inputs that do not
 * come through a route: `academy admin … --data`, the console's forms, a CSV row.
 */
export function validateInput<T extends TSchema>(schema: T, data: unknown, root = 'data'): Static<T> {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (!validate(data)) throw validationError(validate.errors ?? [], root);
  return data as Static<T>;
}

/** A required line of text (trimmed by the service), at most `max` characters. */
export const Line = (max: number, options: { description?: string; examples?: unknown[] } = {}) =>
  Type.String({ format: 'line', minLength: 1, maxLength: max, ...options });

/** Text that may hold line breaks, not blank, at most `max` characters. */
export const Text = (max: number, options: { description?: string; examples?: unknown[] } = {}) =>
  Type.String({ format: 'text', minLength: 1, maxLength: max, ...options });
