import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { operatorContext } from '../../platform/context.ts';
import type { Platform } from '../../platform/platform.ts';
import type { Services } from '../../platform/services.ts';
import { createOrganizationRepository } from '../organization/repository.ts';
import { createRuntimeStateRepository } from '../runtime/repository.ts';
import { type DemoCatalogueSummary, seedDemoCatalogue } from './catalogue.ts';
import { createDemoRepository } from './repository.ts';

export interface DemoOutcome {
  seeded: boolean;
  /** The database already held data of its own: nothing was loaded. */
  refused?: boolean;
  token?: string;
  /** A one-time link that signs the demo administrator in to the console (only when `seeded`). */
  adminLink?: string;
  /** What was loaded (only when `seeded`). */
  catalogue?: DemoCatalogueSummary;
  savedToken?: string;
  /** The saved demo token no longer works (revoked, rotated or expired). */
  savedTokenInvalid?: boolean;
  tokenFile: string;
}

const MARKER = 'demo_seeded_at';

/**
 * Loads the demo data set (the organization, the academy of catalogue.ts and an all-scopes token)
 * into an empty database, once; later calls change nothing. A database that already holds data of its
 * own (a token, a changed organization, users or courses) is never touched: demo data there would
 * overwrite real settings, mix invented people with real ones and add an all-scopes token.
 */
export async function seedDemo(platform: Platform, services: Services): Promise<DemoOutcome> {
  const state = createRuntimeStateRepository(platform.database.db);
  const tokenFile = path.join(platform.config.dataDir, 'demo-token');
  if (await state.get(MARKER)) {
    const savedToken = await readFile(tokenFile, 'utf8').then(
      (t) => t.trim(),
      () => undefined,
    );
    // A saved token that was revoked or rotated since is not offered again.
    const valid = savedToken ? (await platform.tokens.authenticate(savedToken)) !== null : false;
    return {
      seeded: false,
      tokenFile,
      ...(savedToken && valid ? { savedToken } : {}),
      ...(savedToken && !valid ? { savedTokenInvalid: true } : {}),
    };
  }
  if (!(await isEmpty(platform))) return { seeded: false, refused: true, tokenFile };
  const now = platform.clock.now().toISOString();
  await createOrganizationRepository(platform.database.db, platform.changes).update({
    name: 'Northwind Training Academy',
    legal_name: 'Northwind Training Academy Ltd',
    timezone: 'Europe/London',
    locale: 'en-GB',
    currency: 'GBP',
    contact_email: 'office@northwind-academy.example',
    phone: '+44 20 7946 0000',
    website: 'https://northwind-academy.example',
    address_line1: '12 Learning Lane',
    address_city: 'London',
    address_postal_code: 'EC1A 1AA',
    address_country: 'GB',
    updated_at: now,
  });
  // The services log each student and certificate they create; hundreds of such lines say nothing here.
  const ctx = operatorContext({ clock: platform.clock, logger: platform.logger.child({}, { level: 'warn' }) });
  const catalogue = await seedDemoCatalogue(platform, services, ctx);
  const issued = await platform.tokens.create({ name: 'demo', scopes: ['*'] });
  const adminLink = await demoAdministrator(platform, services, now);
  await state.set(MARKER, now, now);
  await mkdir(platform.config.dataDir, { recursive: true, mode: 0o700 });
  await writeFile(tokenFile, `${issued.token}\n`, { mode: 0o600 });
  await chmod(tokenFile, 0o600);
  return { seeded: true, token: issued.token, adminLink, catalogue, tokenFile };
}

/** How long the demo administrator's first sign-in link works. */
const ADMIN_LINK_TTL_MS = 7 * 24 * 3_600_000;

/**
 * The demo's administrator, active with the `administrator` role, and a one-time link that sets their
 * password and signs them in: how someone trying the demo gets into the console without mail.
 */
async function demoAdministrator(platform: Platform, services: Services, now: string): Promise<string> {
  const user = await platform.database.db
    .insertInto('users')
    .values({
      name: 'Demo Administrator',
      email: 'admin@northwind-academy.example',
      status: 'active',
      is_admin: true,
      roles: JSON.stringify(['administrator']),
      permissions: '[]',
      activated_at: now,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return services.staffAuth.signInLink(user.id, ADMIN_LINK_TTL_MS);
}

async function isEmpty(platform: Platform): Promise<boolean> {
  const organization = await createOrganizationRepository(platform.database.db, platform.changes).get();
  const tokens = await platform.tokens.list();
  const untouched = tokens.length === 0 && organization.updated_at === organization.created_at;
  return untouched && !(await createDemoRepository(platform.database.db).holdsPeopleOrCatalogue());
}
