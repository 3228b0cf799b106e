import { after } from 'node:test';
import pino from 'pino';
import { type App, buildApp } from '../../src/assembly/app.ts';
import { type Assembly, assemble } from '../../src/assembly/modules.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { migrate } from '../../src/db/migrate.ts';
import type { Clock } from '../../src/platform/clock.ts';
import type { Platform } from '../../src/platform/platform.ts';
import type { Services } from '../../src/platform/services.ts';
import { createTestDatabase } from './database.ts';
import { secretKeyEnv } from './env.ts';

// Everything a test file creates is closed, and its databases dropped, once the file's tests end.
const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

export interface TestPlatformOptions {
  env?: Record<string, string>;
  clock?: Clock;
}

/**
 * A migrated platform over a fresh database of the current dialect, with its services (as a process
 * assembles them: each built once). It is closed and its database dropped when the test file ends.
 */
export async function createTestAssembly(options: TestPlatformOptions = {}): Promise<Assembly> {
  const database = await createTestDatabase({ migrated: true });
  const config: Config = loadConfig({ DATABASE_URL: database.url, ACADEMY_DATA_DIR: database.dataDir, ...secretKeyEnv, ...options.env });
  const assembly = assemble(config, { logger: pino({ level: 'silent' }), ...(options.clock ? { clock: options.clock } : {}) });
  const { platform } = assembly;
  // A no-op on a copy of the template; migrates from scratch when the file runs without one.
  await migrate(platform.database);
  cleanups.push(async () => {
    await platform.close();
    await database.drop();
  });
  return assembly;
}

/** The platform of a new test assembly (createTestAssembly), for tests that call no service. */
export async function createTestPlatform(options: TestPlatformOptions = {}): Promise<Platform> {
  return (await createTestAssembly(options)).platform;
}

export interface TestApp extends App {
  platform: Platform;
  /** The services the app's routes and jobs use. */
  services: Services;
  /** Creates a token with the given scopes and returns its secret. */
  token(scopes: string[], options?: { userEmail?: string; expiresInDays?: number | null }): Promise<string>;
}

export async function createTestApp(options: TestPlatformOptions = {}): Promise<TestApp> {
  const assembly = await createTestAssembly(options);
  const { platform, services } = assembly;
  const app = await buildApp(assembly);
  cleanups.push(() => app.http.close());
  return {
    ...app,
    platform,
    services,
    token: async (scopes, tokenOptions = {}) =>
      (await platform.tokens.create({ name: 'test', scopes, userEmail: tokenOptions.userEmail, expiresInDays: tokenOptions.expiresInDays }))
        .token,
  };
}

/**
 * An app over a platform of its own, for a test that closes its database: the shared cleanup does not
 * close it; `drop()` closes the app and drops the database.
 */
export async function createClosableApp(): Promise<{ app: App; platform: Platform; drop(): Promise<void> }> {
  const database = await createTestDatabase();
  const assembly = assemble(
    loadConfig({ DATABASE_URL: database.url, ACADEMY_DATA_DIR: database.dataDir, LOG_LEVEL: 'silent', ...secretKeyEnv }),
  );
  await migrate(assembly.platform.database);
  const app = await buildApp(assembly);
  return {
    app,
    platform: assembly.platform,
    drop: async () => {
      await app.http.close();
      await database.drop();
    },
  };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}
