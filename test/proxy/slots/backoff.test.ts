// The crash-loop policy with SPEC's real numbers (the lifecycle tests shrink them).
import { describe, expect, test } from 'vitest';
import { CrashHistory, DEFAULT_BACKOFF, backoffDelay } from '../../../src/proxy/slots/backoff.js';

const noJitter = () => 0.5;

describe('backoff', () => {
  test('0.5 s doubling to a 30 s cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 12].map(attempt => backoffDelay(DEFAULT_BACKOFF, attempt, noJitter))).toEqual([
      500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  test('jitter stays within ±20% and under the cap', () => {
    expect(backoffDelay(DEFAULT_BACKOFF, 1, () => 0)).toBe(400);
    expect(backoffDelay(DEFAULT_BACKOFF, 1, () => 1)).toBe(600);
    expect(backoffDelay(DEFAULT_BACKOFF, 10, () => 1)).toBe(30_000);
    expect(backoffDelay(DEFAULT_BACKOFF, 10, () => 0)).toBe(24_000);
  });

  test('5 consecutive unstable runs fail; a run of 60 s counts as stable and starts the count again', () => {
    const history = new CrashHistory(DEFAULT_BACKOFF);
    let now = 1_000_000;
    const verdicts = [];
    for (let i = 0; i < 5; i++) {
      verdicts.push(history.onExit(now - 1000, now, noJitter));
      now += 2000;
    }
    expect(verdicts.slice(0, 4)).toEqual([
      { action: 'restart', delayMs: 500, attempt: 1 },
      { action: 'restart', delayMs: 1000, attempt: 2 },
      { action: 'restart', delayMs: 2000, attempt: 3 },
      { action: 'restart', delayMs: 4000, attempt: 4 },
    ]);
    expect(verdicts[4]).toEqual({ action: 'fail' });

    const stable = new CrashHistory(DEFAULT_BACKOFF);
    for (let i = 0; i < 4; i++) stable.onExit(now - 1000, now + i, noJitter);
    // Up for 60 s: the four earlier exits no longer count, and this stable run is not one either.
    expect(stable.onExit(now, now + 60_000, noJitter)).toEqual({ action: 'restart', delayMs: 500, attempt: 1 });
    expect(stable.unstableExits).toBe(0);
    for (let i = 1; i < 5; i++) expect(stable.onExit(now, now + 1000, noJitter).action).toBe('restart');
    expect(stable.onExit(now, now + 1000, noJitter)).toEqual({ action: 'fail' });
  });

  test('a server that fails slowly (after 30 s, runs a minute apart) fails at the 5th unstable run', () => {
    // server-redis with no Redis: each run ends after ~30 s, so no 60 s window ever held 5 exits.
    const history = new CrashHistory(DEFAULT_BACKOFF);
    let now = 0;
    const actions = [];
    for (let i = 0; i < 5; i++) {
      now += 59_000;
      actions.push(history.onExit(now - 30_000, now, noJitter).action);
    }
    expect(actions).toEqual(['restart', 'restart', 'restart', 'restart', 'fail']);
  });
});
