// Generates the types of the TypeScript client (clients/typescript/schema.ts) from the committed
// OpenAPI document with openapi-typescript.
//   npm run client          writes clients/typescript/schema.ts
//   npm run client:check    exits 1 when the committed file differs from a fresh generation (CI)
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const documentFile = path.join(root, 'openapi/openapi.json');
export const schemaFile = path.join(root, 'clients/typescript/schema.ts');

interface OpenApiTypeScript {
  default(schema: URL, options?: Record<string, unknown>): Promise<unknown>;
  astToString(ast: unknown): string;
}

/**
 * openapi-typescript needs TypeScript 5's compiler API, which the project's TypeScript 7 does not
 * have: it is installed with its own TypeScript in the client's workspace (clients/typescript), and
 * loaded from there.
 */
function generator(): OpenApiTypeScript {
  const require = createRequire(path.join(root, 'clients/typescript/package.json'));
  return require('openapi-typescript') as OpenApiTypeScript;
}

const HEADER = `/**
 * The Academy API v1 as TypeScript types: generated from openapi/openapi.json by openapi-typescript
 * (\`npm run client\`). Do not edit; CI checks that it matches the document (\`npm run client:check\`).
 */

`;

export async function generateSchema(): Promise<string> {
  const openapiTS = generator();
  const ast = await openapiTS.default(pathToFileURL(documentFile), { alphabetize: false });
  const body = openapiTS.astToString(ast).replace(/^\/\*\*[\s\S]*?\*\/\n\n/, '');
  return HEADER + body;
}

async function main(args: string[]): Promise<number> {
  const relative = path.relative(process.cwd(), schemaFile) || schemaFile;
  const generated = await generateSchema();
  if (args.includes('--check')) {
    let committed: string | null = null;
    try {
      committed = readFileSync(schemaFile, 'utf8');
    } catch {
      committed = null;
    }
    if (committed === generated) {
      console.log(`${relative} is up to date.`);
      return 0;
    }
    console.error(
      committed === null
        ? `${relative} is missing. Run \`npm run client\` and commit the file.`
        : `${relative} is out of date: it was not generated from the committed openapi/openapi.json. Run \`npm run client\` and commit the file.`,
    );
    return 1;
  }
  writeFileSync(schemaFile, generated);
  console.log(`Wrote ${relative}.`);
  return 0;
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
