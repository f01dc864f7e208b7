// A SIGKILLed shared hub leaves its child servers (each in its own process group) running: the
// next hub reaps the groups it recorded, and never those of a hub that still runs.
import { spawn, spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, onTestFinished, test, vi } from 'vitest';
import { bootId, readProcessIdentity } from '../../src/core/process-identity.js';
import { silentLogger } from '../../src/core/logger.js';
import { reapOrphanGroups } from '../../src/hub-link/children.js';
import { makeHubHome } from '../helpers/home.js';
import { isAlive } from '../helpers/processes.js';

const identity = (pid: number) => ({ pid, startTicks: readProcessIdentity(pid)?.startTicks ?? 0, bootId: bootId() });

function groupLeader(): number {
  // A child server as hub runs one: detached, leading its own group, with a grandchild in it.
  const child = spawn('sh', ['-c', 'sleep 60 & sleep 60'], { detached: true, stdio: 'ignore' });
  child.unref();
  onTestFinished(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // reaped
    }
  });
  return child.pid!;
}

test("a dead hub's recorded child groups are ended, grandchildren included", async () => {
  const home = await makeHubHome();
  const leader = groupLeader();
  const deadOwner = spawnSync('true').pid!;
  const file = join(home, 'hub.children.json');
  await writeFile(
    file,
    JSON.stringify({ owner: { pid: deadOwner, startTicks: 1, bootId: bootId() }, groups: [identity(leader)] }),
  );
  expect(await reapOrphanGroups(file, silentLogger)).toBe(1);
  await vi.waitFor(() => expect(isAlive(leader)).toBe(false), { timeout: 3_000 });
});

test('the groups of a hub that still runs are left alone', async () => {
  const home = await makeHubHome();
  const leader = groupLeader();
  const file = join(home, 'hub.children.json');
  // The owner is alive: this test's own parent (vitest's main process stands in for a hub).
  await writeFile(file, JSON.stringify({ owner: identity(process.ppid), groups: [identity(leader)] }));
  expect(await reapOrphanGroups(file, silentLogger)).toBe(0);
  expect(isAlive(leader)).toBe(true);
});
