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
 * `T` or null. Primitive schemas become a JSON Schema type array (`["string", "null"]`), which the
 * response serializer writes directly; a union (anyOf) would make it validate every value against
 * each branch first. Other schemas fall back to a union.
 */
export function Nullable<T extends TSchema>(schema: T) {
  const type = (schema as { type?: unknown }).type;
  if (typeof type === 'string' && type !== 'object' && type !== 'array') {
    return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] });
  }
  return Type.Union([schema, Type.Null()]);
}
