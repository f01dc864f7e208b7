// A 2026-07-28 child that answers tool calls `resultType: "task"` (the Tasks extension, SEP-2663;
// test/fixtures/tasks-ext-child.mjs speaks it on the wire) through the built hub. hub declares the
// extension to the child; a 2025 client (the SDK's v1 Client) gets the task's result from an
// ordinary call, its question relayed as an elicitation; a 2026-07-28 client that declared the
// extension gets the task as it is, under hub's id, and its tasks/get, tasks/update and
// tasks/cancel reach the child under the child's id; one that did not gets the result.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CancelTaskResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  ListTasksResultSchema,
  type CallToolResult,
  type Task,
} from '@modelcontextprotocol/sdk/types.js';
import { expect, onTestFinished, test, vi } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { fixture, spawnHub, textOf } from '../../helpers/hub.js';
import { spawnRawHub, type RawHub } from '../../helpers/raw-rpc.js';
import { commandRecord, putRecords } from '../../proxy/harness.js';

type Json = Record<string, unknown>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TASKS = { 'io.modelcontextprotocol/tasks': {} };
const envelope = (capabilities: Json): Json => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});
const WITH_TASKS = envelope({ extensions: TASKS });

async function kidHome(): Promise<{ home: string; events: string }> {
  const home = await makeHubHome();
  // Beside, not inside, hub's home: a child may not write there.
  const events = join(await makeHubHome(), 'kid-events.log');
  await putRecords(
    openStore(loadConfig({ HUB_HOME: home }).paths),
    commandRecord('kid', [fixture('tasks-ext-child.mjs')], {
      env: { TASKS_EXT_EVENTS: events },
      tools: ['brew', 'confirm', 'explode'].map(name => ({ name, inputSchema: { type: 'object' } })),
    }),
  );
  return { home, events };
}

const eventsOf = async (file: string) => (await readFile(file, 'utf8').catch(() => '')).split('\n');

let seq = 0;
async function request(hub: RawHub, method: string, params: Json): Promise<Json> {
  const id = `k${++seq}`;
  hub.write({ id, method, params });
  return hub.response(id);
}

test('a 2025 client: the child’s task is followed by hub, its question relayed, its failure the child’s error', async () => {
  const { home, events } = await kidHome();
  const hub = await spawnHub(home, { capabilities: { elicitation: {} } });
  onTestFinished(() => hub.close());
  const asked: string[] = [];
  hub.client.setRequestHandler(ElicitRequestSchema, request => {
    asked.push(request.params.message);
    return { action: 'accept', content: { sure: true } };
  });
  const brewed = (await hub.client.callTool({ name: 'kid_brew', arguments: { cups: 2 } })) as CallToolResult;
  expect(textOf(brewed)).toBe('brewed 2 cups');
  // hub declared the extension to the child (it refuses calls without it).
  expect(await eventsOf(events)).toContain('call brew declared');

  const confirmed = (await hub.client.callTool({ name: 'kid_confirm', arguments: {} })) as CallToolResult;
  expect(textOf(confirmed)).toBe('confirmed: accept {"sure":true}');
  expect(asked).toEqual([expect.stringContaining('Really brew?')]);
  expect(asked[0]).toMatch(/kid/);
  expect(await eventsOf(events)).toContain('update t-2 ok');

  await expect(hub.client.callTool({ name: 'kid_explode', arguments: {} })).rejects.toMatchObject({
    code: -32050,
    message: expect.stringContaining('boiler exploded'),
  });
});

test('a 2026-07-28 client of the extension gets the child’s task under hub’s id; tasks/get, tasks/update and tasks/cancel reach the child', async () => {
  const { home, events } = await kidHome();
  const hub = spawnRawHub(home);
  const created = (await request(hub, 'tools/call', { name: 'kid_brew', arguments: { cups: 3 }, _meta: WITH_TASKS }))
    .result as Json;
  expect(created).toMatchObject({ resultType: 'task', taskId: expect.stringMatching(UUID), status: 'working' });
  const taskId = created.taskId as string;
  let done: Json = {};
  await vi.waitFor(
    async () => {
      done = (await request(hub, 'tasks/get', { taskId, _meta: WITH_TASKS })).result as Json;
      expect(done.status).toBe('completed');
    },
    { timeout: 15_000, interval: 100 },
  );
  expect(done).toMatchObject({ resultType: 'complete', taskId, result: { content: [{ text: 'brewed 3 cups' }] } });

  const asking = (await request(hub, 'tools/call', { name: 'kid_confirm', arguments: {}, _meta: WITH_TASKS }))
    .result as Json;
  const confirmId = asking.taskId as string;
  await vi.waitFor(
    async () => {
      const task = (await request(hub, 'tasks/get', { taskId: confirmId, _meta: WITH_TASKS })).result as Json;
      expect(task).toMatchObject({ status: 'input_required', inputRequests: { ok: { method: 'elicitation/create' } } });
    },
    { timeout: 15_000, interval: 100 },
  );
  const ack = await request(hub, 'tasks/update', {
    taskId: confirmId,
    inputResponses: { ok: { action: 'decline' } },
    _meta: WITH_TASKS,
  });
  expect(ack.result).toMatchObject({ resultType: 'complete' });
  expect(await eventsOf(events)).toContain('update t-2 ok');

  const third = (await request(hub, 'tools/call', { name: 'kid_brew', arguments: { ms: 60_000 }, _meta: WITH_TASKS }))
    .result as Json;
  expect((await request(hub, 'tasks/cancel', { taskId: third.taskId, _meta: WITH_TASKS })).result).toMatchObject({
    resultType: 'complete',
  });
  expect(await eventsOf(events)).toContain('cancel t-3');
  // The child's own ids mean nothing to hub's client.
  expect((await request(hub, 'tasks/get', { taskId: 't-1', _meta: WITH_TASKS })).error).toMatchObject({
    code: -32602,
  });
  await hub.end();
});

test('a 2026-07-28 client without the extension never gets a task: hub follows it and answers with the result', async () => {
  const { home } = await kidHome();
  const hub = spawnRawHub(home);
  const answer = (await request(hub, 'tools/call', { name: 'kid_brew', arguments: { cups: 4 }, _meta: envelope({}) }))
    .result as Json;
  expect(answer).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'brewed 4 cups' }] });
  await hub.end();
});

test('a 2025 client with tasks: the child’s tools are listed as optional tasks, and its task is a 2025 task (get, result with the question relayed, list, cancel)', async () => {
  const { home, events } = await kidHome();
  const hub = await spawnHub(home, { capabilities: { elicitation: {}, tasks: { list: {}, cancel: {} } } });
  onTestFinished(() => hub.close());
  const asked: unknown[] = [];
  hub.client.setRequestHandler(ElicitRequestSchema, request => {
    asked.push(request.params._meta?.['io.modelcontextprotocol/related-task']);
    return { action: 'accept', content: { sure: true } };
  });
  // Started once: hub reads its tools (and that it declared the extension).
  await hub.client.callTool({ name: 'kid_brew', arguments: {} });
  await vi.waitFor(
    async () => {
      const tools = (await hub.client.listTools()).tools;
      expect(tools.find(tool => tool.name === 'kid_confirm')?.execution?.taskSupport).toBe('optional');
    },
    { timeout: 15_000, interval: 100 },
  );
  const messages = [];
  for await (const message of hub.client.experimental.tasks.callToolStream({ name: 'kid_confirm', arguments: {} }))
    messages.push(message);
  const created = messages.find(message => message.type === 'taskCreated') as { task: Task } | undefined;
  expect(created?.task.taskId).toMatch(UUID);
  const last = messages.at(-1) as { type: string; result?: CallToolResult };
  expect(last.type).toBe('result');
  expect(textOf(last.result!)).toBe('confirmed: accept {"sure":true}');
  // The question named hub's task, not the child's.
  expect(asked).toEqual([{ taskId: created?.task.taskId }]);

  const { tasks } = await hub.client.request({ method: 'tasks/list' }, ListTasksResultSchema);
  expect(tasks.map(task => task.taskId)).toContain(created?.task.taskId);

  const long = await hub.client.request(
    { method: 'tools/call', params: { name: 'kid_brew', arguments: { ms: 60_000 }, task: {} } },
    CreateTaskResultSchema,
  );
  const cancelled = await hub.client.request(
    { method: 'tasks/cancel', params: { taskId: long.task.taskId } },
    CancelTaskResultSchema,
  );
  expect(cancelled).toMatchObject({ taskId: long.task.taskId, status: 'cancelled' });
  expect(await eventsOf(events)).toContain('cancel t-3');
});
