import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mapPage, type Page } from '../../src/db/list.ts';

const double = (n: number) => ({ n: n * 2 });
const triple = (n: number) => ({ n: n * 3 });

test('a kept page is mapped once per function; its identity goes with the mapped page', () => {
  const kept = { items: [1, 2], total: 2 };
  const page: Page<number> = { ...kept, kept };
  const first = mapPage(page, double);
  assert.deepEqual(first.items, [{ n: 2 }, { n: 4 }]);
  assert.equal(first.kept, kept);
  // The same items (the page still kept), the same function: the same mapped page.
  assert.equal(mapPage({ ...kept, kept }, double), first);
  // Another function maps anew.
  assert.deepEqual(mapPage(page, triple).items, [{ n: 3 }, { n: 6 }]);
  // A mapped page mapped again (a service over its repository) is kept the same way.
  const shown = (item: { n: number }) => `#${item.n}`;
  assert.equal(mapPage(mapPage(page, double), shown), mapPage(mapPage(page, double), shown));
});

test('a page read again (new items) is mapped anew, and a page that is not kept every time', () => {
  const kept = { items: [1], total: 1 };
  const before = mapPage({ ...kept, kept }, double);
  const reread = { items: [5], total: 1 };
  const after = mapPage({ ...reread, kept: reread }, double);
  assert.notEqual(after, before);
  assert.deepEqual(after.items, [{ n: 10 }]);
  const plain: Page<number> = { items: [1], total: 1 };
  const once = mapPage(plain, double);
  assert.notEqual(mapPage(plain, double), once);
  assert.equal(once.kept, undefined);
});
