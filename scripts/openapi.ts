// Generates the committed OpenAPI document from the routes' own schemas.
//   npm run openapi          writes openapi/openapi.json
//   npm run openapi:check    exits 1 when the committed file differs from what the code generates (CI)
//   --file PATH              another document file (tests)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { buildApp } from '../src/assembly/app.ts';
import { assemble } from '../src/assembly/modules.ts';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { writeOrCheck } from './generated-file.ts';

export const documentFile = fileURLToPath(new URL('../openapi/openapi.json', import.meta.url));

const TOP_LEVEL = ['openapi', 'info', 'jsonSchemaDialect', 'servers', 'tags', 'security', 'paths', 'webhooks', 'components'];
const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'];

function byName(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function ordered(value: Record<string, unknown>, order: string[]): Record<string, unknown> {
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * A stable layout, so the file changes only when the API does, whatever order modules register their
 * routes in: top-level fields in the specification's order, paths and component names sorted, methods
 * in HTTP order. Schemas themselves keep their declared property order, which the docs show.
 */
function canonical(document: Record<string, unknown>): Record<string, unknown> {
  const paths = byName(document.paths) as Record<string, Record<string, unknown>> | undefined;
  const components = document.components as Record<string, unknown> | undefined;
  return ordered(
    {
      ...document,
      ...(paths ? { paths: Object.fromEntries(Object.entries(paths).map(([p, item]) => [p, ordered(item, METHODS)])) } : {}),
      ...(components
        ? { components: Object.fromEntries(Object.entries(byName(components) as object).map(([k, v]) => [k, byName(v)])) }
        : {}),
    },
    TOP_LEVEL,
  );
}

export function serialize(document: Record<string, unknown>): string {
  return `${JSON.stringify(canonical(document), null, 2)}\n`;
}

/**
 * Builds the application over a throwaway SQLite database, with no environment of the caller's
 * leaking in (a developer's .env or REDIS_URL must not change the document), and returns the document.
 */
export async function generateDocument(): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'academy-openapi-'));
  const config = loadConfig({ ACADEMY_DATA_DIR: dataDir, DATABASE_URL: `sqlite:${path.join(dataDir, 'academy.db')}`, LOG_LEVEL: 'silent' });
  const assembly = assemble(config, { logger: pino({ level: 'silent' }) });
  const { platform } = assembly;
  try {
    await migrate(platform.database);
    const app = await buildApp(assembly);
    try {
      // A deep copy: the swagger plugin hands out its cached object.
      return JSON.parse(JSON.stringify(app.http.swagger())) as Record<string, unknown>;
    } finally {
      await app.http.close();
    }
  } finally {
    await platform.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function firstDifference(expected: string, actual: string): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) {
      return [
        `first difference at line ${i + 1}:`,
        `  committed: ${b[i] ?? '<end of file>'}`,
        `  generated: ${a[i] ?? '<end of file>'}`,
      ].join('\n');
    }
  }
  return '';
}

async function main(args: string[]): Promise<number> {
  const fileIndex = args.indexOf('--file');
  const file = fileIndex >= 0 && args[fileIndex + 1] ? path.resolve(args[fileIndex + 1] as string) : documentFile;
  const relative = path.relative(process.cwd(), file) || file;
  const generated = serialize(await generateDocument());
  return writeOrCheck(
    {
      file,
      generated,
      command: 'openapi',
      outOfDate: (committed) =>
        'the routes describe a different API than the committed document.\n' +
        `${firstDifference(generated, committed)}\n` +
        `Run \`npm run openapi\`, review \`git diff ${relative}\` and commit the file.`,
    },
    args.includes('--check'),
  );
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
