// Fails when a module of src/ imports itself through others (type-only imports count too: a cycle of
// types still ties two layers together). Prints every cycle found, one per line.
//   node scripts/check-cycles.ts [root]
import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(process.argv[2] ?? 'src');
const files = globSync('**/*.{ts,tsx}', { cwd: root }).map((file) => path.join(root, file));
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

const graph = new Map<string, string[]>();
for (const file of files) {
  const source = readFileSync(file, 'utf8');
  const targets = new Set<string>();
  for (const match of source.matchAll(IMPORT)) {
    const target = path.resolve(path.dirname(file), (match[1] ?? match[2]) as string);
    if (target.startsWith(root)) targets.add(target);
  }
  graph.set(file, [...targets]);
}

// Tarjan's strongly connected components: every component of more than one file is a cycle.
let index = 0;
const indices = new Map<string, number>();
const lowlink = new Map<string, number>();
const stack: string[] = [];
const onStack = new Set<string>();
const cycles: string[][] = [];

function visit(file: string): void {
  indices.set(file, index);
  lowlink.set(file, index);
  index++;
  stack.push(file);
  onStack.add(file);
  for (const next of graph.get(file) ?? []) {
    if (!indices.has(next)) {
      visit(next);
      lowlink.set(file, Math.min(lowlink.get(file) as number, lowlink.get(next) as number));
    } else if (onStack.has(next)) {
      lowlink.set(file, Math.min(lowlink.get(file) as number, indices.get(next) as number));
    }
  }
  if (lowlink.get(file) === indices.get(file)) {
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(component);
  }
}

for (const file of graph.keys()) if (!indices.has(file)) visit(file);

const relative = (file: string) => path.relative(process.cwd(), file);
if (cycles.length) {
  console.error(`${cycles.length} import cycle(s) in ${relative(root)}/:`);
  for (const cycle of cycles) console.error(`  ${cycle.map(relative).sort().join(' <-> ')}`);
  process.exit(1);
}
console.log(`No import cycles among ${graph.size} files in ${relative(root)}/.`);
