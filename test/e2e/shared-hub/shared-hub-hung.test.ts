// The entry's heartbeat watch (src/hub-link/entry.ts): a shared hub that stops answering is ended
// and replaced; a hub that was only asleep with its entry (a laptop's sleep, a frozen container)
// is kept. HUB_HUNG_MS shortens the 15 s window so each case takes seconds.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, onTestFinished, test, vi } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, textOf, type HubSession } from '../../helpers/hub.js';
import { isAlive } from '../../helpers/processes.js';
import { sharedHubPid } from '../../helpers/shared-hub.js';
import { commandRecord, ECHO, putRecords, UNSANDBOXED } from '../../proxy/harness.js';

// Well above a loaded machine's stalls (a woken hub must beat within it), well under the 15 s default.
const HUNG_MS = 3_000;
const ECHO_TOOLS = ['pid', 'hang'].map(name => ({ name, inputSchema: { type: 'object' as const, properties: {} } }));

async function entryOnEcho(): Promise<{ home: string; hub: HubSession }> {
  const home = await makeHubHome();
  await putRecords(
    openStore(loadConfig({ HUB_HOME: home }).paths),
    commandRecord('echo', [ECHO], { tools: ECHO_TOOLS, ...UNSANDBOXED }),
  );
  const hub = await spawnHub(home, { env: { HUB_HUNG_MS: String(HUNG_MS) } });
  onTestFinished(() => hub.close());
  return { home, hub };
}

const childPid = async (hub: HubSession) => Number(textOf(await hub.call('echo_pid')));

/** SIGSTOP pids; they are continued when the test ends, whatever happens (cleanup must reach them). */
function stop(...pids: number[]): void {
  for (const pid of pids) process.kill(pid, 'SIGSTOP');
  onTestFinished(() => {
    for (const pid of pids) if (isAlive(pid)) process.kill(pid, 'SIGCONT');
  });
}

test('a shared hub that stops answering is ended after HUB_HUNG_MS: the call in flight fails retryably, the next runs on a new hub', async () => {
  const { home, hub } = await entryOnEcho();
  expect(await childPid(hub)).toBeGreaterThan(0);
  const hung = sharedHubPid(home)!;
  stop(hung);
  await expect(hub.call('echo_pid')).rejects.toThrow(/-32603.*hub restarted; call again/);
  await vi.waitFor(() => expect(isAlive(hung)).toBe(false), { timeout: 5_000, interval: 50 });
  expect(await childPid(hub)).toBeGreaterThan(0);
  expect(sharedHubPid(home)).not.toBe(hung);
  // Ended for its silence, as the entry measured it (not a clock in this test: the last beat came
  // up to a heartbeat before the stop).
  const said = new RegExp(`the shared hub \\(pid ${hung}\\) did not answer for (\\d+) ms`).exec(hub.stderr?.() ?? '');
  expect(Number(said?.[1])).toBeGreaterThanOrEqual(HUNG_MS);
});

// Failed before: on waking, the entry's timer ran before it read the beats, counted the sleep as
// the hub's silence and SIGKILLed a healthy hub (every session's calls failed, children restarted).
test('entry and shared hub both asleep longer than HUB_HUNG_MS (a laptop lid closed): the hub is kept', async () => {
  const { home, hub } = await entryOnEcho();
  const child = await childPid(hub);
  const shared = sharedHubPid(home)!;
  stop(shared, hub.pid!);
  await sleep(HUNG_MS * 1.5);
  // The entry wakes first, as it may: the hub's beat comes up to a heartbeat later.
  process.kill(hub.pid!, 'SIGCONT');
  await sleep(300);
  process.kill(shared, 'SIGCONT');
  await sleep(HUNG_MS / 2);
  expect(await childPid(hub)).toBe(child);
  expect(sharedHubPid(home)).toBe(shared);
  expect(isAlive(shared)).toBe(true);
  expect(hub.stderr?.()).not.toMatch(/did not answer/);
});
