import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LocalWindows } from '../../src/platform/rate-limit.ts';

test('a window counts from its first request, refuses past its points, and starts again when it ends', () => {
  const windows = new LocalWindows(3, 60);
  const t0 = 1_000_000;
  assert.deepEqual(windows.consume('token:1', t0), { allowed: true, remaining: 2, msBeforeNext: 60_000 });
  assert.deepEqual(windows.consume('token:1', t0 + 1000), { allowed: true, remaining: 1, msBeforeNext: 59_000 });
  assert.equal(windows.consume('token:1', t0 + 2000).allowed, true);
  assert.deepEqual(windows.consume('token:1', t0 + 3000), { allowed: false, remaining: 0, msBeforeNext: 57_000 });
  // Another key has a window of its own.
  assert.equal(windows.consume('token:2', t0 + 3000).remaining, 2);
  // The window of token:1 ends 60 s after its first request.
  assert.deepEqual(windows.consume('token:1', t0 + 60_000), { allowed: true, remaining: 2, msBeforeNext: 60_000 });
});

test('a lower share of points (Redis lost, several instances) applies to the windows already open', () => {
  const windows = new LocalWindows(4, 60);
  windows.consume('k', 0);
  windows.points = 2;
  assert.equal(windows.consume('k', 1).allowed, true);
  assert.equal(windows.consume('k', 2).allowed, false);
});
