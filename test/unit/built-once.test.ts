import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtOnce } from '../../src/db/list.ts';

test("a list's statements are built once per key, and at most `max` are kept", () => {
  let builds = 0;
  const built = builtOnce<{ key: string }>(2);
  const make = (key: string) => built(key, () => ({ key: `${key}#${++builds}` }));
  const a = make('a');
  assert.equal(make('a'), a, 'the same key gives the same statements');
  assert.equal(builds, 1);
  const b = make('b');
  assert.notEqual(b, a);
  assert.equal(make('b'), b);
  assert.equal(builds, 2);
  // A third key when two are kept: all are dropped, and the ones asked again are built again.
  make('c');
  assert.equal(builds, 3);
  assert.notEqual(make('a'), a);
  assert.equal(builds, 4);
});
