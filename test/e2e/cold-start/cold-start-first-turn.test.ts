// Issue 27 item 5: Claude Code sends initialize, then tools/list, prompts/list and resources/list
// at once, and starts its first model turn ~1.7 s after spawning hub. The cold-start lane answers
// all of them from the store, in any order, also with processes recorded (hub's own resources list
// their logs) and with no shared hub running yet (starting one takes over a second).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { askHub } from '../../../src/cold-start/ask-hub.js';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import type { ProcessRecord } from '../../../src/store/schema.js';
import { makeHubHome } from '../../helpers/home.js';
import { initialize, initialized, spawnRawHub, type RawHub } from '../../helpers/raw-rpc.js';
import { ECHO, commandRecord, putRecords } from '../../proxy/harness.js';

type Json = Record<string, unknown>;

const LISTS = [
  { id: 'tools', method: 'tools/list' },
  { id: 'prompts', method: 'prompts/list' },
  { id: 'resources', method: 'resources/list' },
] as const;

/** A home with one server and two ended processes recorded (never started: nothing runs). */
async function homeWithProcesses(): Promise<string> {
  const home = await makeHubHome();
  const paths = loadConfig({ HUB_HOME: home }).paths;
  const store = openStore(paths);
  await putRecords(
    store,
    commandRecord('echo', [ECHO], {
      tools: [{ name: 'echo', description: 'Echoes text.', inputSchema: { type: 'object' } }],
    }),
  );
  const ended = (id: string, minutesAgo: number, name?: string): ProcessRecord => ({
    id,
    ...(name !== undefined && { name }),
    command: 'npm',
    args: ['run', 'dev'],
    cwd: home,
    envKeys: [],
    tags: [],
    ports: [],
    pid: 999_999_000 + minutesAgo,
    status: 'exited',
    startedAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    endedAt: new Date().toISOString(),
    exitCode: 0,
    logFile: paths.processLog(id),
  });
  await store.update(data => {
    data.processes.p1 = ended('p1', 30, 'web');
    data.processes.p2 = ended('p2', 10);
  });
  return home;
}

// The lane says at hand-off how many requests it answered; the shared hub logs it.
const laneAnswered = async (home: string): Promise<number[]> =>
  [...(await readFile(join(home, 'logs', 'hub.log'), 'utf8')).matchAll(/"coldStartAnswered":(\d+)/g)].map(match =>
    Number(match[1]),
  );

// A call only the full hub answers: the entry has attached (and the hub logged) by its answer.
async function fullHubAnswers(hub: RawHub): Promise<void> {
  hub.write({ id: 'full-hub', method: 'tools/call', params: { name: 'list_processes', arguments: {} } });
  expect((await hub.response('full-hub')).result).toBeDefined();
}

describe('the first turn (Claude Code, no shared hub running, processes recorded)', () => {
  test.each([
    ['tools, prompts, resources in one write', [['tools', 'prompts', 'resources']]],
    ['resources, prompts, tools in one write', [['resources', 'prompts', 'tools']]],
    // A client that asks prompts/list first, and the rest once it has that answer.
    ['prompts first, then tools and resources', [['prompts'], ['tools', 'resources']]],
  ])('the lane answers initialize and all three lists: %s', async (_label, writes: string[][]) => {
    const home = await homeWithProcesses();
    const hub = spawnRawHub(home);
    hub.write(initialize(1, 'claude-code'));
    await hub.response(1);
    hub.write(initialized);
    for (const ids of writes) {
      hub.write(...ids.map(id => LISTS.find(list => list.id === id)!));
      for (const id of ids) await hub.response(id);
    }
    await fullHubAnswers(hub);
    expect(await hub.end()).toBe(0);
    // initialize and the three lists, all from the lane.
    expect(await laneAnswered(home)).toEqual([4]);

    // The same answers as a hub without the lane.
    const reference = await askHub({ HUB_HOME: home }, initialize(1, 'claude-code'), 'list', [...LISTS]);
    const answers = await Promise.all(LISTS.map(list => hub.response(list.id)));
    expect(answers).toEqual(reference.more);
    const resources = ((answers[2]!.result as Json).resources as Json[]).map(resource => resource.uri);
    // hub's own, then the logs of the recorded processes, newest first.
    expect(resources).toEqual(['hub://processes', 'hub://servers', 'hub://processes/p2/log', 'hub://processes/p1/log']);
    expect(((answers[0]!.result as Json).tools as Json[]).map(tool => tool.name)).toContain('echo_echo');
  });
});
