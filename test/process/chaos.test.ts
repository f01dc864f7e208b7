// Chaos: several real hubs (node dist/server.js) on one HUB_HOME start and kill processes and
// take ports while hubs are SIGKILLed at random moments, some in the middle of a call. Then:
// no lost record (every started id is listed), no untracked live process (every live keeper is
// listed as running with its pid), no phantom (every running record's keeper is alive), no
// port handed out twice within its reservation, and db.json valid against the schema.
// Short here; HUB_SOAK=1 runs the long form.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, onTestFinished, test } from 'vitest';
import { StoreDataSchema } from '../../src/store/schema.js';
import { makeHubHome } from '../helpers/home.js';
import { spawnHub, startHubInProcess, type HubSession } from '../helpers/hub.js';
import { liveKeepersOf, reapKeepers } from '../helpers/keepers.js';
import { overlappingHandouts, type Handout } from '../helpers/ports.js';
import { isAlive } from '../helpers/processes.js';

const soak = process.env.HUB_SOAK === '1';
const WORKERS = soak ? 6 : 3;
const LIVES = soak ? 12 : 2;
const OPS_PER_LIFE = soak ? 10 : 5;

type Op = 'start' | 'kill' | 'port';
const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(Math.random() * items.length)];

interface Journal {
  readonly started: Set<string>;
  readonly handouts: Handout[];
}

async function call(hub: HubSession, op: Op, journal: Journal): Promise<void> {
  if (op === 'start') {
    const result = await hub.call('start_process', { command: 'sleep', args: ['300'], tags: ['chaos'] });
    const id = (result.structuredContent as { process?: { id: string } } | undefined)?.process?.id;
    if (!result.isError && id) journal.started.add(id);
  } else if (op === 'kill') {
    const id = pick([...journal.started]);
    if (id !== undefined) await hub.call('kill_process', { id, signal: 'SIGKILL' });
  } else {
    const result = await hub.call('get_free_port');
    const port = result.structuredContent as { port?: number; reserved_until?: string } | undefined;
    if (!result.isError && port?.port !== undefined)
      journal.handouts.push({ port: port.port, until: Date.parse(port.reserved_until ?? '') });
  }
}

async function worker(home: string, journal: Journal): Promise<void> {
  for (let life = 0; life < LIVES; life += 1) {
    const hub = await spawnHub(home);
    for (let op = 0; op < OPS_PER_LIFE; op += 1)
      await call(hub, pick<Op>(['start', 'start', 'kill', 'port', 'port']) ?? 'port', journal);
    // The last call of this life is cut short by SIGKILL at a random moment.
    const last = call(hub, pick<Op>(['start', 'kill', 'port']) ?? 'start', journal).catch(() => undefined);
    await sleep(Math.random() * 15);
    if (hub.pid !== undefined) process.kill(hub.pid, 'SIGKILL');
    await last;
    await hub.close().catch(() => undefined);
  }
}

describe('chaos', () => {
  test(`${WORKERS} hubs at once, ${LIVES} SIGKILLed lives each: nothing lost, nothing untracked, no duplicate port, valid db.json`, async () => {
    const home = await makeHubHome();
    onTestFinished(() => reapKeepers(home));
    const journal: Journal = { started: new Set(), handouts: [] };
    await Promise.all(Array.from({ length: WORKERS }, () => worker(home, journal)));

    const observer = await startHubInProcess(home);
    onTestFinished(() => observer.close());
    const listed = (await observer.call('list_processes')).structuredContent as {
      processes: { id: string; pid: number; status: string }[];
    };
    const byId = new Map(listed.processes.map(view => [view.id, view]));

    expect([...journal.started].filter(id => !byId.has(id))).toEqual([]);
    const keepers = liveKeepersOf(home);
    expect(
      keepers.filter(keeper => byId.get(keeper.id)?.status !== 'running' || byId.get(keeper.id)?.pid !== keeper.pid),
    ).toEqual([]);
    expect(listed.processes.filter(view => view.status === 'running' && !isAlive(view.pid))).toEqual([]);
    expect(overlappingHandouts(journal.handouts, 30_000)).toEqual([]);
    expect(StoreDataSchema.safeParse(JSON.parse(readFileSync(join(home, 'db.json'), 'utf8'))).success).toBe(true);
    expect(journal.started.size).toBeGreaterThan(0);
  }, 300_000);
});
