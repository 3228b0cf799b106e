// Fails when a console template (src/**/*.tsx) puts text into HTML unescaped: @kitajs/html escapes
// attribute values but not children, unless the element says `safe` or the child is escaped
// (docs/decisions/0023-console-templates.md). Runs the xss-scan of @kitajs/ts-html-plugin, which
// reads the templates' types with the TypeScript 5 compiler API: the workspace scripts/xss-scan/
// holds that TypeScript beside the plugin (the project's TypeScript 7 has no such API). Warnings
// (a needless `safe`) fail too.
//   npm run check:xss
import { spawnSync } from 'node:child_process';
import { globSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const workspace = createRequire(path.join(root, 'scripts/xss-scan/package.json'));
const cli = path.join(path.dirname(workspace.resolve('@kitajs/ts-html-plugin/package.json')), 'dist/cli.js');
const templates = globSync('src/**/*.tsx', { cwd: root }).sort();
if (templates.length === 0) {
  console.error('No templates (src/**/*.tsx) to check.');
  process.exit(1);
}
const scan = spawnSync(process.execPath, [cli, '--simplified', '--project', 'tsconfig.json', ...templates], {
  cwd: root,
  stdio: 'inherit',
});
if (scan.status !== 0) {
  console.error(`check:xss failed (xss-scan exit ${scan.status ?? scan.signal}): escape each child above, or mark its element \`safe\`.`);
  process.exit(1);
}
