// kill_process on a really full HUB_HOME (a small tmpfs, filled): the process is stopped, and
// the result says what the store holds. remove: true that could not be written is an error (the
// record and its log stay, as list_processes shows); without remove, the result's record and the
// listing name one signal, even though neither db.json nor the keeper's exit file could be written.
import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, onTestFinished, test } from 'vitest';
import { canMount, mountSmallFs } from '../../helpers/limited-fs.js';
import { groupMembers, managerIn } from '../../helpers/processes.js';
import { reapKeepers } from '../../helpers/keepers.js';

const never = new AbortController().signal;

function fill(dir: string): void {
  const chunk = Buffer.alloc(4096, 120);
  for (;;) {
    try {
      appendFileSync(join(dir, 'filler'), chunk);
    } catch {
      return;
    }
  }
}

async function fullHome() {
  const fs = mountSmallFs(1024);
  const home = join(fs.dir, 'home');
  mkdirSync(home, { mode: 0o700 });
  onTestFinished(() => reapKeepers(home));
  const { paths, manager } = managerIn(home);
  return { dir: fs.dir, paths, manager };
}

describe.skipIf(!canMount)('kill_process on a full disk', () => {
  test('remove: true that cannot be written is an error, and the record and its log stay', async () => {
    const { dir, manager } = await fullHome();
    const { record } = await manager.start({ command: 'sleep', args: ['300'] }, undefined, never);
    fill(dir);
    await expect(
      manager.kill({ reference: record.id, signal: 'SIGTERM', graceMs: 5_000, remove: true }),
    ).rejects.toMatchObject({
      code: 'STORE_UNWRITABLE',
      message: expect.stringMatching(/was stopped with SIGTERM, but its record and log could not be removed/),
    });
    expect(groupMembers(record.pid)).toEqual([]);
    const listed = await manager.list();
    expect(listed.map(each => [each.id, each.status])).toEqual([[record.id, 'killed']]);
    expect(existsSync(record.logFile)).toBe(true);
  });

  test('the result and the listing name one signal when neither db.json nor the exit file could be written', async () => {
    const { dir, manager } = await fullHome();
    const { record } = await manager.start({ command: 'sleep', args: ['300'] }, undefined, never);
    fill(dir);
    const outcome = await manager.kill({ reference: record.id, signal: 'SIGTERM', graceMs: 5_000, remove: false });
    expect(outcome.warning).toMatch(/could not be written/);
    expect(outcome.removed).toBe(false);
    const listed = await manager.get(record.id);
    expect(listed.status).toBe('killed');
    expect(outcome.record.status).toBe('killed');
    expect(outcome.record.signal).toBe(listed.signal);
    expect(outcome.record.exitCode).toBe(listed.exitCode);
  });
});
