// How a task-required tool is listed, by the cold-start lane and by the full hub after the
// hand-off: as the server listed it to a client that speaks tasks (declared, in 2025-11-25), and
// without execution.taskSupport to any other client (hub runs the task for it inside the call).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { askHub } from '../../../src/cold-start/ask-hub.js';
import { loadConfig } from '../../../src/core/config/config.js';
import type { CachedTool } from '../../../src/store/schema.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { initialized, spawnRawHub } from '../../helpers/raw-rpc.js';
import { ECHO, commandRecord, putRecords } from '../../proxy/harness.js';

type Json = Record<string, unknown>;

const taskTools: CachedTool[] = [
  {
    name: 'research',
    title: 'Research',
    inputSchema: { type: 'object' },
    execution: { taskSupport: 'required' },
  },
  { name: 'maybe', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } },
];

const init = (protocolVersion: string, capabilities: Json): Json & { id: number } => ({
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities, clientInfo: { name: 'raw-test', version: '1.0.0' } },
});

const toolNamed = (list: Json, name: string) =>
  ((list.result as Json).tools as Json[]).find(tool => tool.name === name);

describe('task-required tools in tools/list, per client', () => {
  test.each([
    ['a client with tasks in 2025-11-25', '2025-11-25', { tasks: {} }, { taskSupport: 'required' }],
    ['a client without tasks', '2025-11-25', {}, undefined],
    ['a client that declares tasks in a revision without them', '2025-06-18', { tasks: {} }, undefined],
  ])('%s', async (_label, version, capabilities, execution) => {
    const home = await makeHubHome();
    await putRecords(
      openStore(loadConfig({ HUB_HOME: home }).paths),
      commandRecord('lab', [ECHO], { tools: taskTools }),
    );
    const hub = spawnRawHub(home, { HUB_TOOL_NAMES: 'dotted' });
    hub.write(init(version, capabilities), initialized, { id: 'lane', method: 'tools/list' });
    const lane = await hub.response('lane');
    // After the hand-off (a tool call needs the full hub), the full hub lists it the same way.
    hub.write(
      { id: 'call', method: 'tools/call', params: { name: 'list_processes', arguments: {} } },
      { id: 'full', method: 'tools/list' },
    );
    const full = await hub.response('full');
    expect(await hub.end()).toBe(0);
    // initialize and the first tools/list were the lane's.
    expect(await readFile(join(home, 'logs', 'hub.log'), 'utf8')).toContain('"coldStartAnswered":2');

    expect(toolNamed(lane, 'lab.research')?.execution).toEqual(execution);
    expect(toolNamed(lane, 'lab.research')?.title).toBe('Research');
    expect(toolNamed(lane, 'lab.maybe')?.execution).toEqual({ taskSupport: 'optional' });
    expect(full.result).toEqual(lane.result);
    // The lane's initialize declares what the full hub declares: tasks for tools/call, list and cancel.
    const capabilitiesOf = ((await hub.response(1)).result as Json).capabilities as Json;
    expect(capabilitiesOf.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    if (version === '2025-11-25') {
      // A hub that never uses the lane answers the same.
      const reference = await askHub({ HUB_HOME: home, HUB_TOOL_NAMES: 'dotted' }, init(version, capabilities));
      expect(reference.list.result).toEqual(lane.result);
    }
  });
});
