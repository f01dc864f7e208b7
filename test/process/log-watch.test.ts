// The log watch behind resources/subscribe, against real processes: updates while a process
// prints (coalesced), one final update when it ends (exit file, or a keeper SIGKILLed before it
// could write one), nothing after remove() or close(), and no timer or folder watch left behind.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, onTestFinished, test, vi } from 'vitest';
import { hubPaths } from '../../src/core/paths.js';
import { silentLogger } from '../../src/core/logger.js';
import { createLogWatch } from '../../src/process/log-watch.js';
import { createProcessManager } from '../../src/process/manager.js';
import { openStore } from '../../src/store/store.js';
import { makeHubHome } from '../helpers/home.js';
import { fixture } from '../helpers/hub.js';
import { isAlive } from '../helpers/processes.js';

const never = new AbortController().signal;

async function setup(options: { coalesceMs?: number; checkEveryMs?: number } = {}) {
  const home = await makeHubHome();
  const paths = hubPaths(home);
  const manager = createProcessManager({
    paths,
    store: openStore(paths),
    log: silentLogger,
    maxRunning: 16,
    logCapBytes: 50 * 1024 * 1024,
    logReadBytes: 64 * 1024,
  });
  onTestFinished(() => manager.close());
  const events: { id: string; ended: boolean; atMs: number }[] = [];
  const watch = createLogWatch({
    paths,
    onUpdate: (id, ended) => events.push({ id, ended, atMs: Date.now() }),
    ...options,
  });
  onTestFinished(() => watch.close());
  const gated = async (writes: number) => {
    const { record } = await manager.start(
      { command: process.execPath, args: [fixture('process-gated-flood.mjs'), home, String(writes)] },
      undefined,
      never,
    );
    return { record, open: (gate: string) => writeFileSync(join(home, gate), '') };
  };
  return { home, manager, watch, events, gated };
}

describe('log watch', () => {
  test('updates while the process prints, coalesced; one final update when it ends, then it stops watching', async () => {
    const { watch, events, gated } = await setup({ coalesceMs: 200 });
    const { record, open } = await gated(500);
    watch.add(record);
    watch.add(record);
    expect(watch.size).toBe(1);
    const began = Date.now();
    open('go');
    await vi.waitFor(() => expect(events.length).toBeGreaterThan(0), { timeout: 10_000 });
    // The flood takes about a second; its updates are at least 200 ms apart.
    await vi.waitFor(
      async () => {
        const { tailLog } = await import('../../src/process/logs/read.js');
        expect(tailLog(record.logFile, { lines: 1, maxBytes: 4096 }).lines).toEqual(['flood done']);
      },
      { timeout: 20_000, interval: 50 },
    );
    const floodMs = Date.now() - began;

    open('end');
    await vi.waitFor(() => expect(events.at(-1)?.ended).toBe(true), { timeout: 10_000 });
    // The flood's updates (its trailing one included), then the end's, once.
    const output = events.length - 1;
    expect(output).toBeLessThanOrEqual(Math.ceil(floodMs / 200) + 2);
    for (let index = 1; index < events.length; index++)
      expect(events[index]!.atMs - events[index - 1]!.atMs).toBeGreaterThanOrEqual(195);
    expect(events.slice(0, -1).every(event => event.id === record.id && !event.ended)).toBe(true);
    expect(events.at(-1)).toMatchObject({ id: record.id, ended: true });
    expect(watch.size).toBe(0);
  }, 60_000);

  test('a keeper SIGKILLed before it could write its exit file still ends the watch', async () => {
    const { watch, events, gated } = await setup({ checkEveryMs: 100 });
    const { record } = await gated(1);
    watch.add(record);
    process.kill(-record.pid, 'SIGKILL');
    await vi.waitFor(() => expect(isAlive(record.pid)).toBe(false), { timeout: 5_000 });
    await vi.waitFor(() => expect(events).toEqual([expect.objectContaining({ id: record.id, ended: true })]), {
      timeout: 5_000,
    });
    expect(watch.size).toBe(0);
  }, 30_000);

  test('remove() and close() stop the updates of a process that keeps printing', async () => {
    const { home, manager, watch, events } = await setup({ coalesceMs: 50 });
    const ticking = async () =>
      (
        await manager.start(
          { command: process.execPath, args: ['-e', 'setInterval(() => console.log("tick"), 20)'] },
          undefined,
          never,
        )
      ).record;
    const [first, second] = [await ticking(), await ticking()];
    watch.add(first);
    watch.add(second);
    await vi.waitFor(() => expect(new Set(events.map(event => event.id))).toEqual(new Set([first.id, second.id])), {
      timeout: 10_000,
    });
    watch.remove(first.id);
    const firstCount = events.filter(event => event.id === first.id).length;
    // Both print all along: three more windows of the second's updates are three the first had.
    const secondCount = events.filter(event => event.id === second.id).length;
    await vi.waitFor(
      () => expect(events.filter(event => event.id === second.id).length).toBeGreaterThanOrEqual(secondCount + 3),
      { timeout: 10_000 },
    );
    expect(events.filter(event => event.id === first.id)).toHaveLength(firstCount);

    watch.close();
    expect(watch.size).toBe(0);
    const total = events.length;
    // A second watch on the same process says when three more windows of output have passed.
    const witnessed: string[] = [];
    const witness = createLogWatch({ paths: hubPaths(home), onUpdate: id => witnessed.push(id), coalesceMs: 50 });
    onTestFinished(() => witness.close());
    witness.add(second);
    await vi.waitFor(() => expect(witnessed.length).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
    expect(events).toHaveLength(total);
  }, 30_000);
});
