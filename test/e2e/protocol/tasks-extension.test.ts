// The Tasks extension (2026-07-28, SEP-2663) through the built hub, over a 2025-11-25 child that
// runs tasks: @modelcontextprotocol/server-everything's simulate-research-query requires a task
// and, asked about an ambiguous topic, elicits mid-task. A 2026-07-28 client that declared the
// extension gets `resultType: "task"` under hub's id, polls tasks/get, answers the question with
// tasks/update, and reads the result in tasks/get; one that did not gets the result of a call
// hub waited on. The client is raw JSON-RPC lines: the SDK's v2 client does not read "task"
// results (it refuses them as an unsupported resultType).
import { fileURLToPath } from 'node:url';
import { expect, test, vi } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { baseDottedName, underscoreName } from '../../../src/core/exposed-names.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { spawnRawHub, type RawHub } from '../../helpers/raw-rpc.js';
import { commandRecord, putRecords } from '../../proxy/harness.js';

type Json = Record<string, unknown>;

const EVERYTHING = fileURLToPath(
  new URL('../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const RESEARCH = underscoreName(baseDottedName('everything', 'simulate-research-query'));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TASKS = { 'io.modelcontextprotocol/tasks': {} };
const envelope = (capabilities: Json): Json => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});
const WITH_TASKS = envelope({ elicitation: { form: {} }, extensions: TASKS });

async function everythingHub(): Promise<RawHub> {
  const home = await makeHubHome();
  await putRecords(
    openStore(loadConfig({ HUB_HOME: home }).paths),
    commandRecord('everything', [EVERYTHING], {
      tools: [
        {
          name: 'simulate-research-query',
          inputSchema: { type: 'object', properties: { topic: { type: 'string' }, ambiguous: { type: 'boolean' } } },
          execution: { taskSupport: 'required' },
        },
      ],
    }),
  );
  return spawnRawHub(home);
}

let seq = 0;
async function request(hub: RawHub, method: string, params: Json): Promise<Json> {
  const id = `r${++seq}`;
  hub.write({ id, method, params });
  return hub.response(id);
}

/** tasks/get until the task is in one of these states (polling, as a client does). */
async function pollUntil(hub: RawHub, taskId: string, statuses: string[], meta = WITH_TASKS): Promise<Json> {
  let last: Json = {};
  await vi.waitFor(
    async () => {
      const answer = await request(hub, 'tasks/get', { taskId, _meta: meta });
      last = answer.result as Json;
      expect(statuses).toContain(last.status);
    },
    { timeout: 30_000, interval: 200 },
  );
  return last;
}

test('a client of the extension: resultType "task", tasks/get, the question answered with tasks/update, the result in tasks/get', async () => {
  const hub = await everythingHub();
  const created = (
    await request(hub, 'tools/call', {
      name: RESEARCH,
      arguments: { topic: 'python', ambiguous: true },
      _meta: WITH_TASKS,
    })
  ).result as Json;
  expect(created).toMatchObject({
    resultType: 'task',
    taskId: expect.stringMatching(UUID),
    status: 'working',
    createdAt: expect.any(String),
    lastUpdatedAt: expect.any(String),
  });
  expect(created).toHaveProperty('ttlMs');
  expect(created).not.toHaveProperty('task');
  const taskId = created.taskId as string;

  const asking = await pollUntil(hub, taskId, ['input_required']);
  expect(asking.resultType).toBe('complete');
  const requests = asking.inputRequests as Record<string, { method: string; params: { message: string } }>;
  const [key, question] = Object.entries(requests)[0]!;
  expect(question.method).toBe('elicitation/create');
  expect(question.params.message).toContain('"python" could have multiple interpretations');

  const ack = await request(hub, 'tasks/update', {
    taskId,
    inputResponses: { [key]: { action: 'accept', content: { interpretation: 'snake' } } },
    _meta: WITH_TASKS,
  });
  expect(ack.result).toMatchObject({ resultType: 'complete' });

  const done = await pollUntil(hub, taskId, ['completed', 'failed']);
  expect(done.status).toBe('completed');
  const text = ((done.result as Json).content as { text: string }[])[0]!.text;
  expect(text).toContain('# Research Report: python (snake)');
  await hub.end();
});

test('tasks/cancel stops the task; tasks/result and tasks/list do not exist; an unknown task and an undeclared extension are refused', async () => {
  const hub = await everythingHub();
  const created = (
    await request(hub, 'tools/call', { name: RESEARCH, arguments: { topic: 'tides' }, _meta: WITH_TASKS })
  ).result as Json;
  const taskId = created.taskId as string;
  expect((await request(hub, 'tasks/cancel', { taskId, _meta: WITH_TASKS })).result).toMatchObject({
    resultType: 'complete',
  });
  await pollUntil(hub, taskId, ['cancelled']);

  for (const method of ['tasks/result', 'tasks/list'])
    expect((await request(hub, method, { taskId, _meta: WITH_TASKS })).error).toMatchObject({ code: -32601 });
  expect((await request(hub, 'tasks/get', { taskId: 'no-such-task', _meta: WITH_TASKS })).error).toMatchObject({
    code: -32602,
  });
  expect((await request(hub, 'tasks/get', { taskId, _meta: envelope({}) })).error).toMatchObject({
    code: -32021,
    data: { requiredCapabilities: { extensions: TASKS } },
  });
  await hub.end();
});

test('a 2026-07-28 client that did not declare the extension never gets a task: hub waits for the result', async () => {
  const hub = await everythingHub();
  const answer = (
    await request(hub, 'tools/call', { name: RESEARCH, arguments: { topic: 'tides' }, _meta: envelope({}) })
  ).result as Json;
  expect(answer.resultType).toBe('complete');
  expect((answer.content as { text: string }[])[0]!.text as string).toContain('# Research Report: tides');
  // server/discover names the extension, and no 2025 tasks capability.
  const discovered = (await request(hub, 'server/discover', { _meta: envelope({}) })).result as Json;
  expect(discovered.capabilities).toMatchObject({ extensions: TASKS });
  expect(discovered.capabilities).not.toHaveProperty('tasks');
  await hub.end();
});
