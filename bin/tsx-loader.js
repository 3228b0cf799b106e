// Runs the console's .tsx templates from source (docs/decisions/0023-console-templates.md). Node.js 24
// strips the types of .ts files but does not know JSX: this hook compiles each .tsx file it loads with
// sucrase (pure JavaScript; JSX to calls of @kitajs/html's runtime, types removed, lines kept where
// they were, so stack traces point at the source) in the thread that imports it, synchronously.
//
// Imported before anything that reaches a .tsx file: by bin/academy.js, and with `--import` by the
// npm scripts that run sources. Importing it also adds it to NODE_OPTIONS, so that every Node.js
// process started from here (a test's server, a benchmark's) runs it too; worker threads started with
// the default execArgv run it when it came by `--import`. `npm run build` compiles .tsx to .js, so
// the built output never needs it. On a Node.js without `registerHooks` it does nothing (bin/academy.js
// then says which Node.js it needs).
//
// What it compiled is kept in node_modules/.cache/academy-tsx/, by a hash of the source, the options
// and sucrase's version: a start whose templates did not change neither loads sucrase nor compiles
// (about 0.2 s of CPU otherwise). NODE_DISABLE_COMPILE_CACHE=1 turns it off; where the directory
// cannot be written, nothing is kept and nothing fails.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const registered = Symbol.for('academy.tsx-loader');

if (typeof module.registerHooks === 'function' && !globalThis[registered]) {
  globalThis[registered] = true;
  const require = module.createRequire(import.meta.url);
  const options = {
    transforms: ['typescript', 'jsx'],
    jsxRuntime: 'automatic',
    jsxImportSource: '@kitajs/html',
    production: true,
    // Node.js 24 runs today's JavaScript as it is: only the types and the JSX are rewritten.
    disableESTransforms: true,
  };
  const cache =
    process.env.NODE_DISABLE_COMPILE_CACHE === '1' ? null : fileURLToPath(new URL('../node_modules/.cache/academy-tsx/', import.meta.url));
  /** @type {string | undefined} What the kept output depends on besides the source. */
  let compiler;
  /** @type {typeof import('sucrase').transform | undefined} */
  let transform;

  /** What was kept in `file`, or null. */
  const kept = (file) => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return null;
    }
  };
  const keep = (file, code) => {
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      // Whole or not at all: a process reading it meanwhile sees the old name or the new file.
      const partial = `${file}.${process.pid}`;
      writeFileSync(partial, code);
      renameSync(partial, file);
    } catch {
      // Not writable here: compiled again next time.
    }
  };

  module.registerHooks({
    load(url, context, nextLoad) {
      if (!url.startsWith('file:') || !/\.tsx(?:[?#]|$)/.test(url)) return nextLoad(url, context);
      const filePath = fileURLToPath(url);
      const source = readFileSync(filePath, 'utf8');
      compiler ??= JSON.stringify([JSON.parse(readFileSync(require.resolve('sucrase/package.json'), 'utf8')).version, options]);
      const file = cache && path.join(cache, `${createHash('sha256').update(compiler).update(source).digest('hex')}.js`);
      let code = file && kept(file);
      if (code === null) {
        // Loaded at the first template to compile, not by processes that never compile one.
        transform ??= require('sucrase').transform;
        code = transform(source, { ...options, filePath }).code;
        if (file) keep(file, code);
      }
      return { format: 'module', source: code, shortCircuit: true };
    },
  });
  const flag = `--import=${import.meta.url}`;
  const current = process.env.NODE_OPTIONS ?? '';
  if (!current.split(/\s+/).includes(flag)) process.env.NODE_OPTIONS = current ? `${current} ${flag}` : flag;
}
