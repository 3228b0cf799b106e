import type { Logger } from 'pino';
import pino from 'pino';
import { buildApp } from '../../src/assembly/app.ts';
import { assemble } from '../../src/assembly/modules.ts';
import { loadConfig } from '../../src/config.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { postgresAdminUrl, secretKeyEnv } from './env.ts';
import { eventually } from './eventually.ts';
import { createTestPlatform } from './platform.ts';
import { createTcpProxy } from './tcp-proxy.ts';

/**
 * An API process whose PostgreSQL connections all go through a proxy that the test can break
 * (test/support/tcp-proxy.ts), beside `other`, a platform on the same database that is not behind it
 * (it issues tokens, writes and looks). The caller closes `app` and `platform`.
 */
export async function proxiedApi(options: { logger?: Logger } = {}) {
  const other = await createTestPlatform();
  const admin = new URL(postgresAdminUrl);
  const proxy = await createTcpProxy({ host: admin.hostname, port: Number(admin.port) || 5432 });
  const assembly = assemble(
    loadConfig({ DATABASE_URL: proxy.url(other.database.url), ACADEMY_DATA_DIR: other.config.dataDir, ...secretKeyEnv }),
    {
      logger: options.logger ?? pino({ level: 'silent' }),
    },
  );
  const { platform } = assembly;
  const app = await buildApp(assembly);
  return { other, proxy, platform, app };
}

/** Whether the process keeps what it reads: its change listener is up, so two looks at the stamp agree. */
export function keeping(platform: Platform): boolean {
  const stamp = platform.changes.stamp();
  return platform.changes.stamp() === stamp;
}

/** Waits until the process keeps what it reads (its change listener is up). */
export async function listenerUp(platform: Platform): Promise<void> {
  await eventually(async () => keeping(platform), { what: 'the change listener to be up', timeoutMs: 5000 });
}
