#!/usr/bin/env -S node --no-parallel-scavenge --max-semi-space-size=4 --no-allocation-site-pretenuring
// The package bin. The sources are TypeScript run directly by Node 24's type stripping
// (docs/decisions/0001-runtime.md); this file checks the runtime and hands over to the CLI.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  process.stderr.write(
    `academy needs Node.js 24 (this is ${process.version}). Run it through npm (npm start, npx academy ...), ` +
      'which uses the Node.js 24 that `npm ci` installs into node_modules.\n',
  );
  process.exit(1);
}
// Node.js keeps what it compiled of each module (the TypeScript stripped, V8's code) and reuses it at
// the next start while the file is unchanged: a start, `academy --version` to `academy serve`, costs
// about half the CPU time (1.4–1.8 s without, 0.8–0.9 s with, on a 2-core machine). In the
// installation's own node_modules/.cache (owned by whoever installed it, not a directory other users
// can write to), or NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it off. Where the directory
// cannot be written, nothing is cached and nothing fails. Worker threads and child processes inherit it.
const { enableCompileCache } = await import('node:module');
const { fileURLToPath } = await import('node:url');
const cache = enableCompileCache(
  process.env.NODE_COMPILE_CACHE || fileURLToPath(new URL('../node_modules/.cache/academy-compile/', import.meta.url)),
);
if (cache.directory) process.env.NODE_COMPILE_CACHE = cache.directory;
// The console's templates are .tsx, which Node.js does not run by itself (ADR 0023).
await import('./tsx-loader.js');
const { main } = await import('../src/assembly/commands/main.ts');
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
