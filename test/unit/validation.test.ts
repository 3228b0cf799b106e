import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from 'typebox';
import { ValidationError } from '../../src/platform/errors.ts';
import { Line, MAX_REPORTED_FIELDS, Text, validateInput } from '../../src/platform/validation.ts';

const errorsOf = (schema: Parameters<typeof validateInput>[0], data: unknown): Record<string, string[]> => {
  try {
    validateInput(schema, data);
  } catch (error) {
    assert.ok(error instanceof ValidationError);
    assert.equal(error.code, 'validation_failed');
    return error.details as Record<string, string[]>;
  }
  assert.fail('the input was accepted');
};

const Person = Type.Object(
  {
    name: Line(200),
    email: Type.String({ format: 'email-address' }),
    note: Type.Optional(Text(2000)),
    timezone: Type.Optional(Type.String({ format: 'timezone' })),
    currency: Type.Optional(Type.String({ format: 'currency' })),
    seats: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    slug: Type.Optional(Type.String({ pattern: '^[a-z0-9-]+$', 'x-message': 'must be a slug: lowercase letters, digits and hyphens' })),
    tags: Type.Optional(Type.Union([Type.Array(Type.String({ minLength: 1 })), Type.Null()])),
  },
  { additionalProperties: false },
);

test('every invalid field is named once, in plain English, whichever rule it breaks', () => {
  assert.deepEqual(errorsOf(Person, { name: '', email: 'xxx', timezone: 'Nowhere/Atlantis', currency: 'XYZ', seats: 101, colour: 'red' }), {
    colour: ['The colour field is not recognised.'],
    name: ['The name field must not be empty.'],
    email: [
      'The email field must be one email address (at most 254 characters, no spaces, quotes, angle brackets or invisible characters), e.g. ada@example.org.',
    ],
    timezone: ['The timezone field must be an IANA time zone, such as Europe/Berlin.'],
    currency: ['The currency field must be an ISO 4217 currency code, such as EUR.'],
    seats: ['The seats field must be at most 100.'],
  });
});

test('a blank or multi-line line, a pattern with its own words, a nullable list', () => {
  const errors = errorsOf(Person, { name: 'Ada\nLovelace', email: '<ada@example.org>', note: '   ', slug: 'Not A Slug', tags: [''] });
  assert.deepEqual(errors.name, ['The name field must be one line of text, not blank.']);
  assert.deepEqual(errors.note, ['The note field must not be blank.']);
  assert.deepEqual(errors.slug, ['The slug field must be a slug: lowercase letters, digits and hyphens.']);
  assert.deepEqual(errors['tags.0'], ['The tags.0 field must not be empty.']);
  assert.equal(errors.tags, undefined, 'no "must be null" beside the real mistake');
  assert.ok(errors.email);
});

test('a valid input is returned as it is, and at most MAX_REPORTED_FIELDS fields are named', () => {
  const input = { name: 'Ada Lovelace', email: 'ada@example.org', timezone: 'Europe/Berlin', currency: 'EUR', tags: null };
  assert.deepEqual(validateInput(Person, input), input);
  const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`unknown_${i}`, i]));
  const errors = errorsOf(Person, { name: 'A', email: 'a@example.org', ...many });
  assert.equal(Object.keys(errors).length, MAX_REPORTED_FIELDS + 1);
  assert.match(errors._?.[0] ?? '', /only the first 20 are listed/);
});
