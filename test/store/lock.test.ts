// The store lock against real processes: dead holders (exited, recycled pid, half-written
// lock), a live holder in another process, litter left by killed writers, and misuse.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, test, vi } from 'vitest';
import { hubPaths } from '../../src/core/paths.js';
import { readProcessIdentity } from '../../src/core/process-identity.js';
import { withLock } from '../../src/store/lock/lock.js';
import { lockWaits } from '../../src/store/lock/stats.js';
import { openStore } from '../../src/store/store.js';
import { makeHubHome } from '../helpers/home.js';
import { fixture } from '../helpers/hub.js';

// A pid that has certainly ended: a child that already exited and was reaped.
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

async function bump(home: string): Promise<number> {
  return openStore(hubPaths(home)).update(data => (data.reservations.n = (data.reservations.n ?? 0) + 1));
}

function holdLock(home: string) {
  const child = spawn(process.execPath, [fixture('store-hold-lock.mjs'), home], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    child,
    next: async () => String((await lines.next()).value),
    release: () => child.stdin.write('go\n'),
    kill: () => child.kill('SIGKILL'),
  };
}

describe('store lock', () => {
  test('a lock left by a dead process is broken', async () => {
    const home = await makeHubHome();
    const lock = `${hubPaths(home).db}.lock`;
    writeFileSync(lock, `${deadPid()} 12345`);
    expect(await bump(home)).toBe(1);
    expect(existsSync(lock)).toBe(false);
  });

  test('a lock naming a live pid with another start time (a recycled pid) is broken', async () => {
    const home = await makeHubHome();
    const lock = `${hubPaths(home).db}.lock`;
    const ticks = readProcessIdentity(process.pid)!.startTicks;
    writeFileSync(lock, `${process.pid} ${ticks + 1}`);
    expect(await bump(home)).toBe(1);
  });

  test('a half-written (empty) lock is broken once older than 1 s, not before', async () => {
    const home = await makeHubHome();
    const lock = `${hubPaths(home).db}.lock`;
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 5_000);
    utimesSync(lock, old, old);
    expect(await bump(home)).toBe(1);

    writeFileSync(lock, '');
    const created = Date.now();
    expect(await bump(home)).toBe(2);
    expect(Date.now() - created).toBeGreaterThanOrEqual(1_000);
  });

  test('a lock held by a live process is waited for, then the change is made on its result', async () => {
    const home = await makeHubHome();
    const paths = hubPaths(home);
    openStore(paths);
    const holder = holdLock(home);
    try {
      expect(await holder.next()).toBe('held');
      let settled = false;
      const mine = openStore(paths)
        .update(data => ({ sawHolder: data.reservations.holder }))
        .finally(() => (settled = true));
      // Nothing may happen while the holder lives: checked once the waiter has waited long
      // enough to claim its turn (<lock>.next, lock.ts), not after a guessed time.
      await vi.waitFor(() => expect(existsSync(`${paths.db}.lock.next`)).toBe(true), { timeout: 10_000, interval: 10 });
      expect(settled).toBe(false);
      expect(readFileSync(`${paths.db}.lock`, 'utf8')).toMatch(new RegExp(`^${holder.child.pid} `));
      holder.release();
      expect(await mine).toEqual({ sawHolder: 1 });
      expect(await holder.next()).toBe('done');
    } finally {
      holder.kill();
    }
  });

  test('a holder SIGKILLed while holding the lock does not wedge the store', async () => {
    const home = await makeHubHome();
    const holder = holdLock(home);
    expect(await holder.next()).toBe('held');
    holder.kill();
    expect(await bump(home)).toBe(1);
    expect(readdirSync(home)).toEqual(['db.json']);
  });

  test('lock waits are counted for the dashboard: a wait behind another hub, an uncontended take, a stale lock broken', async () => {
    const home = await makeHubHome();
    const lock = `${hubPaths(home).db}.lock`;
    expect(lockWaits(lock)).toMatchObject({ taken: 0, waited: 0, lastWaitAt: null });
    await bump(home);
    expect(lockWaits(lock)).toMatchObject({ taken: 1, waited: 0, totalWaitMs: 0 });
    const holder = holdLock(home);
    try {
      expect(await holder.next()).toBe('held');
      const mine = bump(home);
      // Released once the waiter has waited long enough to claim its turn (lock.ts TURN_AFTER_MS).
      await vi.waitFor(() => expect(existsSync(`${lock}.next`)).toBe(true), { timeout: 10_000, interval: 10 });
      holder.release();
      await mine;
    } finally {
      holder.kill();
    }
    const after = lockWaits(lock);
    expect(after).toMatchObject({ taken: 2, waited: 1, brokenStale: 0 });
    expect(after.longestWaitMs).toBeGreaterThanOrEqual(150);
    expect(after.totalWaitMs).toBe(after.longestWaitMs);
    expect(Date.parse(after.lastWaitAt!)).toBeGreaterThan(Date.now() - 60_000);
    writeFileSync(lock, `${deadPid()} 12345`);
    await bump(home);
    expect(lockWaits(lock)).toMatchObject({ taken: 3, brokenStale: 1 });
  });

  test('a live holder past the timeout gives STORE_BUSY naming the lock file and its pid', async () => {
    const home = await makeHubHome();
    const holder = holdLock(home);
    try {
      expect(await holder.next()).toBe('held');
      const lock = `${hubPaths(home).db}.lock`;
      const error = await withLock(lock, async () => 'no', 200).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'STORE_BUSY' });
      expect(String((error as Error).message)).toContain(lock);
      expect(String((error as Error).message)).toContain(`pid ${holder.child.pid}`);
    } finally {
      holder.kill();
    }
  });

  test('files left by killed writers (temp files, lock side files, a dead breaker and turn) are cleaned', async () => {
    const home = await makeHubHome();
    const db = hubPaths(home).db;
    const dead = deadPid();
    writeFileSync(`${home}/.db.json.${dead}.0badf00d.tmp`, '{"half":');
    writeFileSync(`${db}.lock.${dead}.0badf00d`, `${dead} 1`);
    writeFileSync(`${db}.lock.stale-${dead}-0badf00d`, `${dead} 1`);
    writeFileSync(`${db}.lock.break`, `${dead} 1`);
    writeFileSync(`${db}.lock.next`, `${dead} 1`);
    writeFileSync(`${db}.lock`, `${dead} 1`);
    expect(await bump(home)).toBe(1);
    expect(await bump(home)).toBe(2);
    expect(readdirSync(home).sort()).toEqual(['db.json', 'db.json.bak']);
  });

  test('two stores on one file in one process queue their updates: none lost', async () => {
    const home = join(await makeHubHome(), 'real');
    mkdirSync(home);
    symlinkSync(home, `${home}-link`);
    const [a, b] = [openStore(hubPaths(home)), openStore(hubPaths(`${home}-link`))];
    const bumpOn = (store: typeof a) =>
      store.update(data => void (data.reservations.n = (data.reservations.n ?? 0) + 1));
    await Promise.all(Array.from({ length: 100 }, (_, index) => bumpOn(index % 2 ? a : b)));
    expect((await a.read()).reservations.n).toBe(100);
  });

  test('an update started inside another update of the same store is refused, not deadlocked', async () => {
    const home = await makeHubHome();
    const store = openStore(hubPaths(home));
    const error = await store.update(() => store.update(() => 1)).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'INTERNAL' });
    expect(String((error as Error).message)).toMatch(/inside another update/);
    // Work scheduled from inside an update but run after it is fine.
    const later = await store.update(() => new Promise<number>(resolve => setTimeout(resolve, 0, 1)).then(() => 2));
    expect(later).toBe(2);
    expect(await store.update(() => 3)).toBe(3);
  });
});
