import { type Static, type TSchema, Type } from 'typebox';

export function Single<T extends TSchema>(item: T) {
  return Type.Object({ data: item });
}

export const ErrorBody = Type.Object(
  {
    message: Type.String(),
    code: Type.String({ description: 'Machine-readable, snake_case. See the error catalogue in the API description.' }),
    errors: Type.Optional(
      Type.Record(Type.String(), Type.Array(Type.String()), { description: 'Validation messages keyed by field (dot notation).' }),
    ),
  },
  { $id: 'Error' },
);

/** Path parameter of a numeric id; a malformed id is a 404, never a validation error. */
export const IdParam = Type.Integer({ minimum: 1, maximum: 2147483647 });

/**
 * Path parameter of a slug (a course's): lowercase letters and digits in hyphen-separated words. Like
 * a malformed id, a malformed slug addresses nothing: path parameters that fail validation are a 404
 * (src/http/errors.ts), the same answer as an unknown slug.
 */
export const SlugParam = Type.String({ pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', maxLength: 100 });

/** A calendar date, `YYYY-MM-DD`. */
export function DateString(description: string) {
  return Type.String({ format: 'date', description });
}

/** An RFC 3339 timestamp in UTC. */
export function Timestamp(description: string) {
  return Type.String({ format: 'date-time', description });
}

/**
 * `T` or null. Primitive schemas become a JSON Schema type array (`["string", "null"]`), which the
 * response serializer writes directly; a union (anyOf) would make it validate every value against
 * each branch first. An enum gets null among its values. Other schemas fall back to a union.
 */
export function Nullable<T extends TSchema>(schema: T) {
  const { type } = schema as { type?: unknown };
  if (typeof type === 'string' && type !== 'object' && type !== 'array') {
    // An enum lists null too, or the schema would allow the type null and then refuse the value.
    const values = (schema as { enum?: unknown[] }).enum;
    return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'], ...(values ? { enum: [...values, null] } : {}) });
  }
  return Type.Union([schema, Type.Null()]);
}

/**
 * A reference (`$ref`) to a named schema, typed as that schema: the OpenAPI document shows one named
 * component, and a handler whose response does not match it fails the typecheck (a bare
 * `Type.Ref('Name')` is typed `unknown`, which accepts anything).
 */
export function Ref<T extends TSchema>(schema: T) {
  const id = (schema as { $id?: unknown }).$id;
  if (typeof id !== 'string') throw new Error('Ref() needs a schema with an $id');
  return Type.Unsafe<Static<T>>(Type.Ref(id));
}

/**
 * A string that is one of `values`, as one JSON Schema `enum` with its `type` (a union of literals
 * would be an `anyOf` of one-value enums in the document).
 */
export function StringEnum<const T extends readonly string[]>(values: T, options: { description?: string; default?: T[number] } = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/**
 * A response that is a file, streamed as it is (never serialized): its bytes under each media type it
 * may have, so that the OpenAPI document does not call it JSON and a generated client reads it as a
 * file. Parameters such as `charset` are left out of the names.
 */
export function FileResponse(description: string, mediaTypes: readonly string[]) {
  const names = [...new Set(mediaTypes.map((type) => type.split(';')[0]?.trim() as string))].sort();
  return {
    description,
    content: Object.fromEntries(names.map((type) => [type, { schema: Type.String({ contentEncoding: 'binary' }) }])),
  };
}
