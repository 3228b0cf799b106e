import { type Static, Type } from 'typebox';
import { Nullable, Ref } from '../../http/schemas.ts';
import { Line } from '../../platform/validation.ts';

export const Address = Type.Object(
  {
    line1: Nullable(Type.String({ maxLength: 200 })),
    line2: Nullable(Type.String({ maxLength: 200 })),
    city: Nullable(Type.String({ maxLength: 100 })),
    region: Nullable(Type.String({ maxLength: 100 })),
    postal_code: Nullable(Type.String({ maxLength: 20 })),
    country: Nullable(Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 code.' })),
  },
  { $id: 'Address' },
);

export const Organization = Type.Object(
  {
    name: Type.String(),
    legal_name: Nullable(Type.String()),
    timezone: Type.String({ description: 'IANA time zone, e.g. Europe/Berlin.' }),
    locale: Type.String({ description: 'BCP 47 language tag, e.g. en-GB.' }),
    currency: Type.String({ description: 'ISO 4217 code of the default currency.' }),
    contact_email: Nullable(Type.String({ format: 'email' })),
    phone: Nullable(Type.String()),
    website: Nullable(Type.String({ format: 'uri' })),
    address: Ref(Address),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Organization' },
);
export type Organization = Static<typeof Organization>;

export const OrganizationPatch = Type.Object(
  {
    name: Type.Optional(Line(200)),
    legal_name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    timezone: Type.Optional(
      Type.String({ format: 'timezone', minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/Berlin.' }),
    ),
    locale: Type.Optional(Type.String({ format: 'locale', minLength: 2, maxLength: 35, description: 'BCP 47 language tag, e.g. en-GB.' })),
    currency: Type.Optional(Type.String({ format: 'currency', pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, e.g. EUR.' })),
    contact_email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
    phone: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
    website: Type.Optional(
      Nullable(Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000, description: 'An http or https URL.' })),
    ),
    address: Type.Optional(Type.Partial(Address, { additionalProperties: false })),
  },
  { additionalProperties: false, minProperties: 1, $id: 'OrganizationPatch' },
);
export type OrganizationPatch = Static<typeof OrganizationPatch>;
