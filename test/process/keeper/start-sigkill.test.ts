// A hub SIGKILLed at a random moment inside start_process must never leave a live process that
// no hub can see: every live keeper of the HUB_HOME is in the store (list_processes), running,
// with its real pid. Each round is a real hub (node dist/server.js) killed 0-12 ms after the
// start_process request was sent (the call itself is warm: a first start loaded its modules).
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, onTestFinished, test } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, startHubInProcess } from '../../helpers/hub.js';
import { liveKeepersOf, reapKeepers } from '../../helpers/keepers.js';

const ROUNDS = process.env.HUB_SOAK === '1' ? 100 : 10;

describe('start_process under SIGKILL', () => {
  test(`${ROUNDS} hubs SIGKILLed at random moments inside start_process leave no untracked process`, async () => {
    const home = await makeHubHome();
    onTestFinished(() => reapKeepers(home));
    for (let round = 0; round < ROUNDS; round += 1) {
      const hub = await spawnHub(home);
      const warm = await hub.call('start_process', { command: 'sleep', args: ['300'] });
      expect(warm.isError).toBeFalsy();
      const pending = hub.call('start_process', { command: 'sleep', args: ['300'] }).catch(() => undefined);
      await sleep(Math.random() * 12);
      if (hub.pid !== undefined) process.kill(hub.pid, 'SIGKILL');
      await pending;
      await hub.close().catch(() => undefined);
    }
    const observer = await startHubInProcess(home);
    onTestFinished(() => observer.close());
    const listed = (await observer.call('list_processes')).structuredContent as {
      processes: { id: string; pid: number; status: string }[];
    };
    const byId = new Map(listed.processes.map(view => [view.id, view]));
    const keepers = liveKeepersOf(home);
    expect(keepers.length).toBeGreaterThanOrEqual(ROUNDS);
    const untracked = keepers.filter(
      keeper => byId.get(keeper.id)?.status !== 'running' || byId.get(keeper.id)?.pid !== keeper.pid,
    );
    expect(untracked).toEqual([]);
  }, 180_000);
});
