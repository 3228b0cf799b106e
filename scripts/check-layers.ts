// Fails when a file of src/ imports a file of a floor above its own (type-only imports count too).
// The floors, from the bottom (docs/architecture.md):
//   base      src/config.ts, src/secret-key.ts, src/db/
//   platform  src/platform/
//   kit       src/http/, src/cli/ (output, ids, runner: what every module's commands use)
//   modules   src/modules/<resource>/ (a module may use another module: the same floor)
//   assembly  src/assembly/ (the app, the composition root, the OpenAPI assembly, the commands)
// Prints every upward import, one per line.
//   node scripts/check-layers.ts [root]
import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(process.argv[2] ?? 'src');
const FLOORS = ['base', 'platform', 'kit', 'modules', 'assembly'] as const;
type Floor = (typeof FLOORS)[number];

function floorOf(file: string): Floor | null {
  const relative = path.relative(root, file).split(path.sep).join('/');
  if (relative === 'config.ts' || relative === 'secret-key.ts' || relative.startsWith('db/')) return 'base';
  if (relative.startsWith('platform/')) return 'platform';
  if (relative.startsWith('http/') || relative.startsWith('cli/')) return 'kit';
  if (relative.startsWith('modules/')) return 'modules';
  if (relative.startsWith('assembly/')) return 'assembly';
  return null;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
const files = globSync('**/*.{ts,tsx}', { cwd: root }).map((file) => path.join(root, file));
const upward: string[] = [];
const unplaced: string[] = [];
for (const file of files) {
  const from = floorOf(file);
  if (!from) {
    unplaced.push(path.relative(process.cwd(), file));
    continue;
  }
  for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const target = path.resolve(path.dirname(file), (match[1] ?? match[2]) as string);
    const to = floorOf(target);
    if (to && FLOORS.indexOf(to) > FLOORS.indexOf(from)) {
      upward.push(`${path.relative(process.cwd(), file)} (${from}) imports ${path.relative(process.cwd(), target)} (${to})`);
    }
  }
}

if (unplaced.length) {
  console.error(
    `${unplaced.length} file(s) of ${path.relative(process.cwd(), root)}/ on no floor (see the list in scripts/check-layers.ts):`,
  );
  for (const file of unplaced) console.error(`  ${file}`);
}
if (upward.length) {
  console.error(`${upward.length} import(s) running up the floors of ${path.relative(process.cwd(), root)}/:`);
  for (const line of upward) console.error(`  ${line}`);
}
if (unplaced.length || upward.length) process.exit(1);
console.log(
  `No upward imports among ${files.length} files of ${path.relative(process.cwd(), root)}/ (base, platform, kit, modules, assembly).`,
);
