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
const { main } = await import('../src/cli/main.ts');
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
