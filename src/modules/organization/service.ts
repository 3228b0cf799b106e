import type { Updateable } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { OrganizationTable } from '../../db/schema.ts';
import { audit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { requirePermission } from '../../platform/permissions.ts';
import type { OrganizationRepository, OrganizationRow } from './repository.ts';
import type { Organization, OrganizationPatch } from './schemas.ts';

function present(row: OrganizationRow): Organization {
  return {
    name: row.name,
    legal_name: row.legal_name,
    timezone: row.timezone,
    locale: row.locale,
    currency: row.currency,
    contact_email: row.contact_email,
    phone: row.phone,
    website: row.website,
    address: {
      line1: row.address_line1,
      line2: row.address_line2,
      city: row.address_city,
      region: row.address_region,
      postal_code: row.address_postal_code,
      country: row.address_country,
    },
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function createOrganizationService(deps: { organization: OrganizationRepository; dialect: Dialect }) {
  return {
    /** The organization's settings. */
    async get(_ctx: ServiceContext): Promise<Organization> {
      return present(await deps.organization.get());
    },

    /**
     * Partial update: only the fields present in `patch` change (nested address fields included).
     * The patch was checked against OrganizationPatch (time zone, locale and currency by format); the
     * time zone and locale are stored in their canonical spelling.
     * `expect` is checked on the current settings, in the update's transaction (If-Match).
     */
    async update(ctx: ServiceContext, patch: OrganizationPatch, expect?: (current: Organization) => void): Promise<Organization> {
      requirePermission(ctx, 'operations.manage');
      const changes: Updateable<OrganizationTable> = {};
      const direct = ['name', 'legal_name', 'timezone', 'locale', 'currency', 'contact_email', 'phone', 'website'] as const;
      for (const field of direct) {
        if (patch[field] !== undefined) (changes as Record<string, unknown>)[field] = patch[field];
      }
      if (patch.name !== undefined) changes.name = patch.name.trim();
      if (patch.timezone !== undefined)
        changes.timezone = new Intl.DateTimeFormat('en', { timeZone: patch.timezone }).resolvedOptions().timeZone;
      if (patch.locale !== undefined) changes.locale = Intl.getCanonicalLocales(patch.locale)[0] as string;
      for (const [field, value] of Object.entries(patch.address ?? {})) {
        if (value !== undefined) (changes as Record<string, unknown>)[`address_${field}`] = value;
      }
      changes.updated_at = ctx.clock.now().toISOString();
      await deps.organization.update(changes, {
        dialect: deps.dialect,
        check: expect && ((row) => expect(present(row))),
        also: (trx, before) =>
          audit.record(trx, ctx, {
            action: 'organization.updated',
            subject: { type: 'organization', id: before.id },
            changes: audit.changes(before, changes),
          }),
      });
      return this.get(ctx);
    },
  };
}

export type OrganizationService = ReturnType<typeof createOrganizationService>;
