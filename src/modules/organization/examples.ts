import type { Static } from 'typebox';
import type { Address, Organization, OrganizationPatch } from './schemas.ts';

const address: Static<typeof Address> = {
  line1: '12 Learning Lane',
  line2: null,
  city: 'London',
  region: null,
  postal_code: 'EC1A 1AA',
  country: 'GB',
};

const organization: Static<typeof Organization> = {
  name: 'Northwind Training Academy',
  legal_name: 'Northwind Training Academy Ltd',
  timezone: 'Europe/London',
  locale: 'en-GB',
  currency: 'GBP',
  contact_email: 'office@northwind-academy.example',
  phone: '+44 20 7946 0000',
  website: 'https://northwind-academy.example',
  address,
  created_at: '2026-01-05T09:00:00.000Z',
  updated_at: '2026-06-02T14:12:45.318Z',
};

const organizationPatch: Static<typeof OrganizationPatch> = { phone: '+44 20 7946 0001', website: 'https://northwind-academy.example' };

/**
 * An example of each of the module's named schemas, by `$id`, for the OpenAPI document
 * (AcademyModule.examples): the shape the API really sends, from the demo academy (Northwind Training
 * Academy, GBP, Europe/London). Each is typed as its schema, so one that no longer fits fails the typecheck.
 */
export const examples = {
  Address: address,
  Organization: organization,
  OrganizationPatch: organizationPatch,
};
