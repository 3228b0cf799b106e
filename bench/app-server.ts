// The Academy application as `academy serve --no-worker` runs it, over a fresh SQLite database in a
// temporary directory with the demo data. The per-token rate limit is raised through its
// configuration variable so that the benchmark measures served requests, not 429s.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { seedDemo } from '../src/modules/demo/seed.ts';
import { assemble } from '../src/modules/index.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'academy-bench-'));
const config = loadConfig({
  DATABASE_URL: `sqlite:${path.join(dataDir, 'academy.db')}`,
  ACADEMY_DATA_DIR: dataDir,
  ACADEMY_RATE_LIMIT_PER_MINUTE: '100000000',
  LOG_LEVEL: 'silent',
});
const platform = assemble(config, { logger: pino({ level: 'silent' }) });
await migrate(platform.database);
const demo = await seedDemo(platform);
const app = await buildApp(platform, { logRequests: false });
const url = await app.http.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ url: `${url}/api/v1/organization`, token: demo.token });
process.on('disconnect', async () => {
  await app.http.close();
  await platform.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
});
