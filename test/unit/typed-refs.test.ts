import assert from 'node:assert/strict';
import { globSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

// A bare `Type.Ref('Name')` is typed `unknown`: in a route's responses it switches off the typecheck of
// every response of that route (ADR 0007). Schemas refer to each other through the typed `Ref()`.
test('no module refers to a schema through an untyped Type.Ref', () => {
  const offenders = globSync('src/**/*.ts')
    .filter((file) => !file.endsWith('src/http/schemas.ts'))
    .filter((file) => /\bType\.Ref\(/.test(readFileSync(file, 'utf8')));
  assert.deepEqual(offenders, []);
});
