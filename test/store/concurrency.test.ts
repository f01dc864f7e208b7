// Several hub processes on one HUB_HOME: forked writers through the real store (dist/),
// a reader polling db.json throughout, and writers SIGKILLed at random mid-run.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { hubPaths } from '../../src/core/paths.js';
import { openStore } from '../../src/store/store.js';
import { makeHubHome } from '../helpers/home.js';
import { percentile, startReader, startWriter, type Done, type Writer } from './writers.js';

const WRITERS = 8;
const CHANGES = 250;

const mode = (path: string) => statSync(path).mode & 0o777;

// The figures are reported, never asserted: the 2 cores are shared with other tests. Steady
// is from the first update begun to the last one ended (no Node startup); wall is all of it.
function report(label: string, changes: number, ms: number, done: Done[]): void {
  const latencies = done.flatMap(each => each.latencies);
  const steadyMs = Math.max(...done.map(each => each.lastAt)) - Math.min(...done.map(each => each.firstAt));
  const figures = {
    steadyPerSecond: Math.round((changes / steadyMs) * 1000),
    wallPerSecond: Math.round((changes / ms) * 1000),
    p50: percentile(latencies, 50).toFixed(1),
    p99: percentile(latencies, 99).toFixed(1),
    max: Math.max(...latencies).toFixed(1),
  };
  process.stderr.write(`[store] ${label}: ${changes} changes in ${Math.round(ms)} ms ${JSON.stringify(figures)}\n`);
}

function keysOf(file: string): { counter: number; keys: Set<string> } {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { reservations: Record<string, number> };
  const keys = new Set(Object.keys(data.reservations).filter(key => key !== 'counter'));
  return { counter: data.reservations.counter ?? 0, keys };
}

describe('store shared by forked processes', () => {
  test(`${WRITERS} writers × ${CHANGES} changes: none lost, valid JSON throughout, 0600 file in a 0700 folder`, async () => {
    const home = join(await makeHubHome(), 'hub');
    const paths = hubPaths(home);
    openStore(paths);
    const reader = await startReader(paths.db);
    const begin = performance.now();
    const writers = Array.from({ length: WRITERS }, (_, index) => startWriter(home, `w${index}`, CHANGES));
    const results = await Promise.all(writers.map(writer => writer.ended));
    const elapsed = performance.now() - begin;
    const seen = await reader.stop();

    expect(seen.bad).toEqual([]);
    expect(seen.missing).toBe(0);
    expect(seen.reads).toBeGreaterThan(0);
    const { counter, keys } = keysOf(paths.db);
    expect(counter).toBe(WRITERS * CHANGES);
    expect(keys.size).toBe(WRITERS * CHANGES);
    for (const writer of writers) for (const key of writer.acked) expect(keys.has(key)).toBe(true);
    expect(mode(paths.db)).toBe(0o600);
    expect(mode(home)).toBe(0o700);
    expect(readFileSync(paths.db, 'utf8')).toMatch(/^\{\n {2}"version": 1,\n/);
    expect(readdirSync(home).sort()).toEqual(['db.json', 'db.json.bak']);
    report(
      '8 writers',
      WRITERS * CHANGES,
      elapsed,
      results.flatMap(result => (result.done ? [result.done] : [])),
    );
  }, 120_000);

  test('writers SIGKILLed at random: every acknowledged change kept, no wedged lock, no temp files left', async () => {
    const home = join(await makeHubHome(), 'hub');
    const paths = hubPaths(home);
    openStore(paths);
    const reader = await startReader(paths.db);
    const all: Writer[] = [];
    let kills = 0;
    let killedHolding = 0;
    // Each slot runs until CHANGES acknowledged changes; a writer is SIGKILLed with odds 1 in 2
    // at a random point of its run (just after an ack, so inside its next update), and a new
    // one (new tag) makes the rest.
    const runSlot = async (slot: number) => {
      let done = 0;
      for (let generation = 0; done < CHANGES; generation += 1) {
        const remaining = CHANGES - done;
        const writer = startWriter(home, `s${slot}g${generation}`, remaining);
        all.push(writer);
        // One kill at least (slot 0's first writer, half-way at most), so the run always tests one.
        const killAt =
          slot === 0 && generation === 0
            ? 1 + Math.floor((Math.random() * remaining) / 2)
            : Math.random() < 0.5
              ? 1 + Math.floor(Math.random() * remaining)
              : 0;
        writer.onAck(count => {
          if (count !== killAt) return;
          setTimeout(() => {
            if (!writer.child.kill('SIGKILL')) return;
            kills += 1;
            if (lockHolder() === writer.child.pid) killedHolding += 1;
          }, Math.random() * 3);
        });
        await writer.ended;
        done += writer.acked.length;
      }
    };
    const lockHolder = () => {
      try {
        return Number(readFileSync(`${paths.db}.lock`, 'utf8').split(' ')[0]);
      } catch {
        return undefined;
      }
    };
    const begin = performance.now();
    await Promise.all(Array.from({ length: WRITERS }, (_, slot) => runSlot(slot)));
    const elapsed = performance.now() - begin;
    const seen = await reader.stop();

    expect(seen.bad).toEqual([]);
    expect(seen.missing).toBe(0);
    const { counter, keys } = keysOf(paths.db);
    const acked = all.flatMap(writer => writer.acked);
    for (const key of acked) expect(keys.has(key)).toBe(true);
    // A writer killed after its write but before its ack leaves an unacknowledged key: fine.
    expect(counter).toBe(keys.size);
    expect(keys.size).toBeGreaterThanOrEqual(acked.length);

    // What killed writers left (a temp file, a lock, lock side files) is at most a few per kill.
    // db.json.bak is the store's own copy, not litter: with no kill it was counted against 0 (CI).
    const left = readdirSync(home).filter(name => name !== 'db.json' && name !== 'db.json.bak');
    expect(kills).toBeGreaterThan(0);
    expect(left.length).toBeLessThanOrEqual(3 * kills);
    // No lock is left wedged: a fresh update completes (it waits on no live holder), and it
    // clears what was left.
    const store = openStore(paths);
    const freshBegin = performance.now();
    await store.update(data => {
      data.reservations.after = 1;
    });
    process.stderr.write(
      `[store] ${kills} kills (${killedHolding} seen holding the lock) in ${Math.round(elapsed)} ms; then a fresh update took ${Math.round(performance.now() - freshBegin)} ms; ${acked.length} acked, ${keys.size} kept\n`,
    );
    expect(readdirSync(home).sort()).toEqual(['db.json', 'db.json.bak']);
    expect(mode(paths.db)).toBe(0o600);
  }, 120_000);
});
