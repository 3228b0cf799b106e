// The Academy application as `academy serve --no-worker` runs it. By default over a fresh SQLite
// database in a temporary directory with the demo data; with BENCH_DATABASE_URL (and
// BENCH_DATA_DIR) over that database as it is (a prepared one, or a large data set of the catalogue
// suite), with a token of its own that is revoked when the benchmark stops it. BENCH_PORT with
// BENCH_REUSE_PORT=1 lets several of these processes share one port, as ACADEMY_REUSE_PORT does for
// `academy serve`. The per-token rate limit is raised through its configuration variable so that the
// benchmark measures served requests, not 429s.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from '../src/assembly/app.ts';
import { assemble } from '../src/assembly/modules.ts';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { seedDemo } from '../src/modules/demo/seed.ts';
import { benchSecretKey } from './datasets.ts';

const given = process.env.BENCH_DATABASE_URL;
const dataDir = given ? (process.env.BENCH_DATA_DIR as string) : mkdtempSync(path.join(tmpdir(), 'academy-bench-'));
const config = loadConfig({
  DATABASE_URL: given ?? `sqlite:${path.join(dataDir, 'academy.db')}`,
  ACADEMY_DATA_DIR: dataDir,
  ACADEMY_RATE_LIMIT_PER_MINUTE: '100000000',
  ACADEMY_REUSE_PORT: process.env.BENCH_REUSE_PORT === '1' ? 'true' : 'false',
  LOG_LEVEL: 'silent',
  ...benchSecretKey,
});
const assembly = assemble(config, { logger: pino({ level: 'silent' }) });
const { platform } = assembly;
await migrate(platform.database);
const issued = given ? await platform.tokens.create({ name: 'bench', scopes: ['*'], expiresInDays: 1 }) : null;
const token = issued?.token ?? (await seedDemo(platform, assembly.services)).token;
const app = await buildApp(assembly, { logRequests: false, warm: true });
const listenOptions = { port: Number(process.env.BENCH_PORT ?? 0), host: '127.0.0.1', reusePort: config.reusePort };
const url = await app.http.listen(listenOptions);
process.send?.({ url: `${url}/api/v1/organization`, base: url, token });
process.on('disconnect', async () => {
  await app.http.close();
  if (issued) await platform.tokens.revoke(issued.record.id);
  await platform.close();
  if (!given) rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
});
