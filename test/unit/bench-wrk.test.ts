import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseWrk } from '../../bench/wrk.ts';

// wrk 4.1 (Debian) with --latency, against a server answering every seventh request with a 500.
const REPORT = `Running 1s test @ http://127.0.0.1:18099/
  1 threads and 4 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   341.00us    0.96ms  13.48ms   94.32%
    Req/Sec    29.48k    11.81k   41.51k    80.00%
  Latency Distribution
     50%  123.00us
     75%  167.00us
     90%  500.00us
     99%    5.53ms
  29275 requests in 1.00s, 3.54MB read
  Non-2xx or 3xx responses: 4182
Requests/sec:  29189.18
Transfer/sec:      3.53MB
`;

test("wrk's report is read: rate, percentiles in milliseconds whatever their unit, and failures", () => {
  assert.deepEqual(parseWrk(REPORT), {
    rps: 29189.18,
    p50Ms: 0.123,
    p99Ms: 5.53,
    total: 29275,
    non2xx: 4182,
    errors: 0,
    timeouts: 0,
  });
  const slow = REPORT.replace('99%    5.53ms', '99%    1.25s').replace(
    '  Non-2xx or 3xx responses: 4182\n',
    '  Socket errors: connect 1, read 2, write 3, timeout 4\n',
  );
  assert.deepEqual(parseWrk(slow), { rps: 29189.18, p50Ms: 0.123, p99Ms: 1250, total: 29275, non2xx: 0, errors: 6, timeouts: 4 });
  assert.equal(parseWrk(REPORT.replace('99%    5.53ms', '99%    2.00m')).p99Ms, 120_000);
});

test('a report without its rate, its count or its percentiles is refused, not read as zero', () => {
  assert.throws(() => parseWrk(REPORT.replace(/Requests\/sec:.*\n/, '')), /Requests/);
  assert.throws(() => parseWrk(REPORT.replace(/ {2}29275 requests in.*\n/, '')), /requests in/);
  assert.throws(() => parseWrk(REPORT.replace(/ {5}99%.*\n/, '')), /99th percentile/);
  assert.throws(() => parseWrk(REPORT.replace('5.53ms', '5.53 ms')), /cannot read/);
});
