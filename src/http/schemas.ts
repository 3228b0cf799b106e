import { type TSchema, Type } from 'typebox';

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
