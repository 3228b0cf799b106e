import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeOrCheck } from './generated-file.ts';

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
  return writeOrCheck(
    {
      file: schemaFile,
      generated: await generateSchema(),
      command: 'client',
      outOfDate: () => 'it was not generated from the committed openapi/openapi.json. Run `npm run client` and commit the file.',
    },
    args.includes('--check'),
  );
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
