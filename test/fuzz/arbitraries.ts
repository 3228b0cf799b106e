import fc from 'fast-check';
import { deref, type OpenApiDocument, type Schema } from './document.ts';

/** Strings that have broken parsers, databases and encoders before. */
const NASTY_STRINGS = [
  '',
  ' ',
  '0',
  '-1',
  'null',
  'true',
  '[]',
  '{}',
  'NaN',
  '1e309',
  '9999999999999999999999',
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uFEFF',
  '🎓'.repeat(50),
  'x'.repeat(5000),
  '2026-02-30',
  '2026-13-01T00:00:00Z',
  '1970-01-01T00:00:00.000Z',
  '9999-12-31T23:59:59.999Z',
  'ümlaut@exämple.org',
  '@',
];

export const nastyString = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
);

/** Any JSON value, including the awkward ones. */
export const anyJson = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: nastyString },
  { weight: 1, arbitrary: fc.constantFrom(-1, 0, 1.5, 2 ** 31, -(2 ** 53), Number.MAX_SAFE_INTEGER, 1e300) },
);

function typesOf(schema: Schema): string[] {
  const type = schema.type;
  if (Array.isArray(type)) return type as string[];
  if (typeof type === 'string') return [type];
  if (schema.properties) return ['object'];
  return [];
}

function stringFor(schema: Schema): fc.Arbitrary<string> {
  const max = typeof schema.maxLength === 'number' ? Math.min(schema.maxLength, 60) : 60;
  const min = typeof schema.minLength === 'number' ? Math.min(schema.minLength, max) : 0;
  switch (schema.format) {
    case 'date-time':
      return fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2040-12-31T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'date':
      return fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2040-12-31T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'email':
      // Mostly the addresses people have; sometimes the exotic ones RFC 5322 allows.
      return fc
        .oneof(
          { weight: 4, arbitrary: fc.stringMatching(/^[a-z][a-z0-9.]{0,12}@[a-z]{2,10}\.(org|com|example)$/) },
          { weight: 1, arbitrary: fc.emailAddress() },
        )
        .filter((e) => e.length <= max && !e.includes('..'));
    case 'uri':
    case 'url':
      return fc.webUrl().filter((u) => u.length <= max);
  }
  if (typeof schema.pattern === 'string') {
    return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= min && s.length <= max);
  }
  return fc.string({ minLength: min, maxLength: max });
}

function numberFor(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = typeof schema.minimum === 'number' ? schema.minimum : -1000;
  const max = typeof schema.maximum === 'number' ? schema.maximum : Math.max(min + 1000, 1000);
  return integer ? fc.integer({ min, max: Math.min(max, 2 ** 31 - 1) }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** Plausible values for members whose meaning the schema states only in words, by member name. */
const HINTS: [RegExp, fc.Arbitrary<unknown>][] = [
  [/(^|_)email$/, stringFor({ format: 'email', maxLength: 254 })],
  [/^timezone$/, fc.constantFrom('Europe/London', 'Europe/Berlin', 'UTC', 'America/New_York', 'Asia/Tokyo')],
  [/^(locale|language)$/, fc.constantFrom('en', 'en-GB', 'de-AT', 'fr', 'pt-BR')],
  [/^currency$/, fc.constantFrom('GBP', 'EUR', 'USD', 'JPY')],
  [/^country$/, fc.constantFrom('GB', 'DE', 'US', 'JP')],
  [/^(website|url)$/, fc.constantFrom('https://example.org', 'https://academy.example/path?q=1')],
];

/**
 * Values that the schema accepts, or nearly: the generator follows types, enums, formats, patterns,
 * lengths and ranges, but not every cross-field rule (an `ends_on` before `starts_on` is still made),
 * which is exactly the input that reaches a service's own checks.
 */
export function validFor(document: OpenApiDocument, input: Schema, depth = 0): fc.Arbitrary<unknown> {
  const schema = deref(document, input);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  for (const union of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[union])) return fc.oneof(...(schema[union] as Schema[]).map((s) => validFor(document, s, depth + 1)));
  }
  if (Array.isArray(schema.allOf))
    return validFor(document, Object.assign({}, ...(schema.allOf as Schema[]).map((s) => deref(document, s))), depth);
  const types = typesOf(schema);
  if (types.length === 0) return depth > 2 ? fc.constant(null) : anyJson;
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'null':
          return fc.constant(null);
        case 'boolean':
          return fc.boolean();
        case 'integer':
          return numberFor(schema, true);
        case 'number':
          return numberFor(schema, false);
        case 'string':
          return stringFor(schema);
        case 'array': {
          const items = schema.items ? validFor(document, schema.items as Schema, depth + 1) : anyJson;
          const maxLength = typeof schema.maxItems === 'number' ? Math.min(schema.maxItems, 5) : 5;
          const minLength = typeof schema.minItems === 'number' ? Math.min(schema.minItems, maxLength) : 0;
          return fc.array(items, { minLength, maxLength, ...(schema.uniqueItems ? { comparator: 'IsStrictlyEqual' as const } : {}) });
        }
        default:
          return objectFor(document, schema, depth);
      }
    }),
  );
}

function objectFor(document: OpenApiDocument, schema: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) {
    // Values the server checks beyond the schema (a real time zone, a known currency) get plausible ones.
    const hint = property.$ref ? undefined : HINTS.find(([pattern]) => pattern.test(name))?.[1];
    model[name] = hint
      ? fc.oneof({ weight: 4, arbitrary: hint }, { weight: 1, arbitrary: validFor(document, property, depth + 1) })
      : validFor(document, property, depth + 1);
  }
  const requiredKeys = Object.keys(model).filter((k) => required.has(k));
  return fc.record(model, { requiredKeys }) as fc.Arbitrary<Record<string, unknown>>;
}

/**
 * Values the schema should refuse (or that test its edges): another type, an out-of-range number, an
 * unknown member, a missing required member, a wrong member type, nested nonsense.
 */
export function invalidFor(document: OpenApiDocument, input: Schema): fc.Arbitrary<unknown> {
  const schema = deref(document, input);
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const names = Object.keys(properties);
  const mutations: fc.Arbitrary<unknown>[] = [anyJson, fc.constantFrom(null, [], 0, '', true, {})];
  if (names.length) {
    const valid = objectFor(document, schema, 0);
    mutations.push(
      // One member of the wrong type or value.
      fc.tuple(valid, fc.constantFrom(...names), anyJson).map(([object, name, value]) => ({ ...object, [name]: value })),
      // A required member dropped.
      fc.tuple(valid, fc.constantFrom(...names)).map(([object, name]) => {
        const copy = { ...object };
        delete copy[name];
        return copy;
      }),
      // A member nobody documented.
      fc.tuple(valid, fc.string({ minLength: 1, maxLength: 12 }), anyJson).map(([object, name, value]) => ({ [name]: value, ...object })),
      // Prototype-shaped keys.
      valid.map((object) =>
        JSON.parse(`{"__proto__": {"admin": true}, "constructor": {"prototype": 1}, ${JSON.stringify(object).slice(1)}`),
      ),
    );
  }
  return fc.oneof(...mutations);
}

/** Query and path values: what the parameter schema allows, or text that it should not. */
export function parameterValue(document: OpenApiDocument, schema: Schema): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 18, arbitrary: validFor(document, schema).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))) },
    { weight: 1, arbitrary: nastyString },
    {
      weight: 1,
      arbitrary: fc.constantFrom('0', '-1', '1.5', '01', '0x10', '+1', '1e3', '2147483648', 'true', 'TRUE', 'yes', 'desc ', 'ASC'),
    },
  );
}
