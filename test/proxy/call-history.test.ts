// The dashboard's per-minute call history (issue 31 item 5): buckets by minute, p50/p95 from the
// log-scale histogram within √2 of the true value, an hour kept and no more.
import { expect, test } from 'vitest';
import { CallHistory } from '../../src/proxy/calls/history.js';

test('calls, errors and p50/p95 per minute; minutes older than an hour are gone', () => {
  let now = Date.UTC(2026, 10, 27, 12, 0, 10);
  const history = new CallHistory(() => now);
  // 100 calls of 1..100 ms, 5 of them failed.
  for (let ms = 1; ms <= 100; ms++) history.record('echo', ms, ms % 20 === 0);
  now += 60_000;
  history.record('echo', 2_000, true);
  history.record('other', 0.01, false);
  const [first, second] = history.lastHour().echo!;
  expect(first).toMatchObject({ t: Date.UTC(2026, 10, 27, 12, 0, 0), calls: 100, errors: 5 });
  // The true p50 is 50 ms and p95 95 ms: the bins are √2 wide, reported by their top.
  expect(first!.p50Ms).toBeGreaterThanOrEqual(50);
  expect(first!.p50Ms).toBeLessThanOrEqual(50 * Math.SQRT2);
  expect(first!.p95Ms).toBeGreaterThanOrEqual(95);
  expect(first!.p95Ms).toBeLessThanOrEqual(95 * Math.SQRT2);
  expect(second).toMatchObject({ calls: 1, errors: 1 });
  expect(second!.p50Ms).toBeGreaterThanOrEqual(2_000);
  expect(history.lastHour().other![0]!.p50Ms).toBe(0.1);
  // An hour later the first minute has left the window; the second is its last minute.
  now += 59 * 60_000;
  expect(history.lastHour().echo).toHaveLength(1);
  now += 60_000;
  expect(history.lastHour().echo).toBeUndefined();
});

test('a very long call lands in the last bin, not past the end', () => {
  const history = new CallHistory(() => 0);
  history.record('slow', 1e12, false);
  expect(history.lastHour().slow![0]!.p95Ms).toBeGreaterThan(60_000);
});
