import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRange } from '../../src/http/ranges.ts';

// A file of 100 bytes: offsets 0 to 99.
const SIZE = 100;

test('one range of bytes is those bytes, its end cut to the file', () => {
  assert.deepEqual(parseRange('bytes=10-19', SIZE), { start: 10, end: 19 });
  assert.deepEqual(parseRange('bytes=90-500', SIZE), { start: 90, end: 99 });
  assert.deepEqual(parseRange('bytes=99-99', SIZE), { start: 99, end: 99 });
});

test('a suffix longer than the file selects all of it (RFC 9110 §14.1.3)', () => {
  assert.deepEqual(parseRange('bytes=-5', SIZE), { start: 95, end: 99 });
  assert.deepEqual(parseRange('bytes=-500', SIZE), { start: 0, end: 99 });
});

test('an open-ended range runs to the end of the file', () => {
  assert.deepEqual(parseRange('bytes=50-', SIZE), { start: 50, end: 99 });
  assert.deepEqual(parseRange('bytes=0-', SIZE), { start: 0, end: 99 });
});

test('several ranges get the whole file, even when one of them is unsatisfiable', () => {
  assert.equal(parseRange('bytes=0-1,10-12', SIZE), null);
  assert.equal(parseRange('bytes=0-1,200-300', SIZE), null);
  assert.equal(parseRange('bytes=0-1,', SIZE), null);
});

test('the unit is case-insensitive (RFC 9110 §14.1)', () => {
  assert.deepEqual(parseRange('BYTES=0-1', SIZE), { start: 0, end: 1 });
  assert.deepEqual(parseRange('Bytes=-5', SIZE), { start: 95, end: 99 });
});

test('a range beyond the file, or an empty suffix, is unsatisfiable: a 416', () => {
  assert.equal(parseRange('bytes=100-', SIZE), 'unsatisfiable');
  assert.equal(parseRange('bytes=500-600', SIZE), 'unsatisfiable');
  assert.equal(parseRange('bytes=-0', SIZE), 'unsatisfiable');
  assert.equal(parseRange('bytes=0-', 0), 'unsatisfiable', 'an empty file has no bytes to send');
  assert.equal(parseRange('bytes=-5', 0), 'unsatisfiable', 'an empty file has no bytes to send');
});

test('no Range, another unit, or one that does not parse gets the whole file', () => {
  assert.equal(parseRange(undefined, SIZE), null);
  assert.equal(parseRange('', SIZE), null);
  assert.equal(parseRange('items=0-1', SIZE), null);
  assert.equal(parseRange('bytes=x-y', SIZE), null);
  assert.equal(parseRange('bytes=-', SIZE), null);
  assert.equal(parseRange('bytes', SIZE), null);
  // Invalid (RFC 9110 §14.1.1): ignored like any range that does not parse (§14.2 allows either).
  assert.equal(parseRange('bytes=20-10', SIZE), null);
});
