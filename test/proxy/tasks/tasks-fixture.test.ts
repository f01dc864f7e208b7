// MCP tasks through a real hub (createHub in this process, a real SDK Client) over real SDK-built
// children (fixtures/task-server.mjs): a child that declared no tasks has its task-required tool
// left out with the reason; two children that both number their tasks "task-1" are told apart by
// hub's own ids; a client without tasks gets the task run for it, bounded by tasks.maxWaitMs; and
// the newer fields of tools and results (title, icons, _meta, outputSchema, resource_link,
// structuredContent, execution) come through as the child gave them.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  type CallToolResult,
  TaskStatusNotificationSchema,
  type ClientCapabilities,
  type Progress,
  type Task,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, onTestFinished, test } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome, makeScratchDir } from '../../helpers/home.js';
import { fixture, startHubInProcess, textOf, type HubSession } from '../../helpers/hub.js';
import { commandRecord, putRecords, until } from '../harness.js';

const TASK_SERVER = fixture('task-server.mjs');
const TASKS: ClientCapabilities = { tasks: { list: {}, cancel: {} } };
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** hub with task servers installed under these names (each writing its events beside HUB_HOME), all started. */
async function hubWith(
  names: string[],
  options: { capabilities?: ClientCapabilities; env?: Record<string, string>; config?: object } = {},
): Promise<{ hub: HubSession; events: (name: string) => Promise<string> }> {
  const home = await makeHubHome();
  if (options.config) await writeFile(join(home, 'config.json'), JSON.stringify(options.config));
  // Outside HUB_HOME, which a sandboxed child never reaches.
  const scratch = await makeScratchDir();
  const eventsOf = (name: string) => join(scratch, `${name}.events`);
  await putRecords(
    openStore(loadConfig({ HUB_HOME: home }).paths),
    ...names.map(name =>
      commandRecord(name, [TASK_SERVER], { env: { TASK_LABEL: name, TASK_EVENTS: eventsOf(name), ...options.env } }),
    ),
  );
  const hub = await startHubInProcess(home, {
    env: { HUB_TOOL_NAMES: 'dotted' },
    ...(options.capabilities && { capabilities: options.capabilities }),
  });
  onTestFinished(() => hub.close());
  for (const name of names) {
    await hub.call('registry.call', { server: name, tool: 'plain', arguments: { word: 'start' } });
    await until(async () => expect((await hub.client.listTools()).tools.map(t => t.name)).toContain(`${name}.plain`));
  }
  return { hub, events: name => readFile(eventsOf(name), 'utf8').catch(() => '') };
}

const createTask = (hub: HubSession, name: string, args: Record<string, unknown>) =>
  hub.client.request(
    { method: 'tools/call', params: { name, arguments: args, task: { ttl: 60_000 } } },
    CreateTaskResultSchema,
  );
const taskResult = (hub: HubSession, taskId: string) =>
  hub.client.request({ method: 'tasks/result', params: { taskId } }, CallToolResultSchema);

describe('tasks through hub, with SDK-built task servers', () => {
  test('a child that declared no tasks: its task-required tool is left out, and registry.list says why', async () => {
    const { hub } = await hubWith(['notasks'], { capabilities: TASKS, env: { TASK_NO_TASKS: '1' } });
    const names = (await hub.client.listTools()).tools.map(tool => tool.name);
    expect(names).not.toContain('notasks.slow');
    // "optional" can be called without a task, so it is listed.
    expect(names).toContain('notasks.maybe');
    const listing = await hub.call('registry.list', { server: 'notasks' });
    expect(listing.structuredContent?.toolIssues).toEqual([
      { tool: 'slow', action: 'skipped', reason: expect.stringMatching(/did not declare the tasks capability/) },
    ]);
    expect(textOf(listing)).toContain('! skipped slow: it requires task-augmented calls');
    await expect(hub.call('notasks.slow', {})).rejects.toThrow(/Unknown tool: notasks\.slow/);
    // Asked as a task anyway, the optional tool is refused with the reason.
    await expect(createTask(hub, 'notasks.maybe', {})).rejects.toThrow(/did not declare task-augmented tools\/call/);
  });

  test('two children both number their tasks "task-1": hub ids tell them apart, and each call reaches its own child', async () => {
    const { hub, events } = await hubWith(['alpha', 'beta'], { capabilities: TASKS });
    const statuses: Task[] = [];
    hub.client.setNotificationHandler(TaskStatusNotificationSchema, notice => {
      statuses.push(notice.params);
    });
    const [a, b] = await Promise.all([
      createTask(hub, 'alpha.slow', { ms: 50, steps: 2 }),
      createTask(hub, 'beta.slow', { ms: 50, steps: 3 }),
    ]);
    expect(await events('alpha')).toContain('created task-1');
    expect(await events('beta')).toContain('created task-1');
    expect(a.task.taskId).toMatch(UUID);
    expect(b.task.taskId).toMatch(UUID);
    expect(a.task.taskId).not.toBe(b.task.taskId);

    // Each child's statuses reach the client under hub's ids, the one sent before the task was named too.
    await until(() =>
      expect(statuses.map(task => [task.taskId, task.statusMessage])).toEqual(
        expect.arrayContaining([
          [a.task.taskId, 'alpha: accepted'],
          [a.task.taskId, 'alpha: step 2 of 2'],
          [b.task.taskId, 'beta: accepted'],
          [b.task.taskId, 'beta: step 3 of 3'],
        ]),
      ),
    );
    expect(statuses.every(task => task.taskId === a.task.taskId || task.taskId === b.task.taskId)).toBe(true);
    const [ra, rb] = await Promise.all([taskResult(hub, a.task.taskId), taskResult(hub, b.task.taskId)]);
    expect(textOf(ra)).toBe('alpha: 2 steps done in task-1');
    expect(textOf(rb)).toBe('beta: 3 steps done in task-1');
    // The rest of the result as the child gave it; the related task is named by hub's id.
    expect(rb).toEqual({
      content: [
        { type: 'text', text: 'beta: 3 steps done in task-1' },
        { type: 'resource_link', uri: 'tasks://beta/task-1', name: 'task-1', mimeType: 'text/plain' },
      ],
      structuredContent: { server: 'beta', taskId: 'task-1', steps: 3 },
      _meta: { 'example.com/server': 'beta', 'io.modelcontextprotocol/related-task': { taskId: b.task.taskId } },
    });
    expect(await hub.client.experimental.tasks.getTask(a.task.taskId)).toMatchObject({
      taskId: a.task.taskId,
      status: 'completed',
      statusMessage: 'alpha: step 2 of 2',
    });

    // Cancelled in alpha only (alpha's task-2, while beta has a task-2 of its own running).
    const [long, other] = await Promise.all([
      createTask(hub, 'alpha.slow', { ms: 300, steps: 20 }),
      createTask(hub, 'beta.slow', { ms: 50, steps: 2 }),
    ]);
    expect(await hub.client.experimental.tasks.cancelTask(long.task.taskId)).toMatchObject({ status: 'cancelled' });
    await until(async () => expect(await events('alpha')).toContain('cancelled task-2'));
    expect(textOf(await taskResult(hub, other.task.taskId))).toBe('beta: 2 steps done in task-2');
    expect(await events('beta')).not.toContain('cancelled');
    await expect(hub.client.experimental.tasks.cancelTask(long.task.taskId)).rejects.toThrow(/already cancelled/);
    // Only tools that allow it run as tasks: not an ordinary tool, not hub's own.
    await expect(createTask(hub, 'alpha.plain', { word: 'x' })).rejects.toThrow(/-32601.*cannot run as a task/);
    await expect(createTask(hub, 'registry.list', {})).rejects.toThrow(/-32601.*hub's own tools/);
  });

  test('a client without tasks: the task runs inside the call; tasks.maxWaitMs ends the wait naming the task', async () => {
    const { hub, events } = await hubWith(['alpha'], { config: { tasks: { maxWaitMs: 1000 } } });
    const tools = (await hub.client.listTools()).tools;
    expect(tools.find(tool => tool.name === 'alpha.slow')).not.toHaveProperty('execution');
    expect(tools.find(tool => tool.name === 'alpha.maybe')?.execution).toEqual({ taskSupport: 'optional' });

    const progress: Progress[] = [];
    const done = (await hub.client.callTool({ name: 'alpha.slow', arguments: { ms: 20, steps: 2 } }, undefined, {
      onprogress: step => progress.push(step),
    })) as CallToolResult;
    expect(done.structuredContent).toEqual({ server: 'alpha', taskId: 'task-1', steps: 2 });
    // The task's status messages and the child's own progress, in one rising sequence.
    expect(progress.map(step => step.message).filter(Boolean)).toEqual(
      expect.arrayContaining(['alpha: accepted', 'alpha: step 1 of 2', 'alpha: step 2 of 2']),
    );
    expect(progress.some(step => step.total === 20)).toBe(true);
    const values = progress.map(step => step.progress);
    expect(values.every((value, index) => index === 0 || value > (values[index - 1] ?? 0))).toBe(true);
    // registry.call runs it the same way.
    const viaRegistry = await hub.call('registry.call', {
      server: 'alpha',
      tool: 'slow',
      arguments: { ms: 10, steps: 1 },
    });
    expect(viaRegistry.structuredContent).toEqual({ server: 'alpha', taskId: 'task-2', steps: 1 });
    // An optional tool is called as an ordinary tool.
    expect(textOf(await hub.call('alpha.maybe', { ms: 10, steps: 1 }))).toBe('alpha: 1 steps done in no task');
    expect(await events('alpha')).toContain('maybe without a task');

    const waited = await hub.call('alpha.slow', { ms: 250, steps: 8 });
    expect(waited.isError).toBe(true);
    expect(textOf(waited)).toMatch(/^CHILD_TIMEOUT: alpha\.slow did not finish within 1000 ms \(tasks\.maxWaitMs\)/);
    const id = UUID.exec(textOf(waited))?.[0] ?? '';
    expect(textOf(waited)).toContain(`tasks/result {"taskId": "${id}"}`);
    // It went on in the child, and can be read later under the id given.
    await expect(taskResult(hub, id)).rejects.toThrow(/still running after 1000 ms \(tasks\.maxWaitMs\)/);
    await until(async () => expect((await hub.client.experimental.tasks.getTask(id)).status).toBe('completed'));
    expect(textOf(await taskResult(hub, id))).toBe('alpha: 8 steps done in task-3');
  });

  test('a running task keeps its server from idle stop; an expired task is forgotten', async () => {
    const { hub } = await hubWith(['alpha'], { capabilities: TASKS, config: { idleStopMs: 300 } });
    const created = await hub.client.request(
      { method: 'tools/call', params: { name: 'alpha.slow', arguments: { ms: 300, steps: 5 }, task: { ttl: 20_000 } } },
      CreateTaskResultSchema,
    );
    // Polled by nobody for longer than idleStopMs: the server must still be running it.
    expect(textOf(await taskResult(hub, created.task.taskId))).toBe('alpha: 5 steps done in task-1');
    const [status] = (await hub.call('registry.list', { server: 'alpha' })).structuredContent?.servers as {
      state: string;
    }[];
    expect(status?.state).toBe('ready');

    // A task past its ttl is gone, in the child and in hub.
    const short = await hub.client.request(
      { method: 'tools/call', params: { name: 'alpha.slow', arguments: { ms: 10, steps: 1 }, task: { ttl: 200 } } },
      CreateTaskResultSchema,
    );
    await until(() =>
      expect(hub.client.experimental.tasks.getTask(short.task.taskId)).rejects.toThrow(/Task not found/),
    );
    const { tasks } = await hub.client.experimental.tasks.listTasks();
    expect(tasks.map(task => task.taskId)).toEqual([created.task.taskId]);
  });

  test('hub keeps at most 1,000 tasks, dropping the oldest ended ones; tasks/list pages over them', async () => {
    const { hub } = await hubWith(['alpha'], { capabilities: TASKS });
    const ids: string[] = [];
    for (let batch = 0; batch < 21; batch += 1) {
      const created = await Promise.all(
        Array.from({ length: 50 }, () => createTask(hub, 'alpha.slow', { ms: 0, steps: 1 })),
      );
      ids.push(...created.map(result => result.task.taskId));
    }
    expect(new Set(ids).size).toBe(1050);
    const listed: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await hub.client.experimental.tasks.listTasks(cursor);
      expect(page.tasks.length).toBeLessThanOrEqual(50);
      listed.push(...page.tasks.map(task => task.taskId));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(listed).toHaveLength(1000);
    expect(new Set(listed)).toEqual(new Set(ids.slice(50)));
    await expect(hub.client.experimental.tasks.getTask(ids[0] ?? '')).rejects.toThrow(/Task not found/);
    await expect(hub.client.experimental.tasks.listTasks('x')).rejects.toThrow(/Invalid cursor/);
  });

  test("a plain tool's newer fields and its result come through as the child gave them", async () => {
    const { hub } = await hubWith(['alpha'], { capabilities: TASKS });
    const tools = (await hub.client.listTools()).tools;
    expect(tools.find(tool => tool.name === 'alpha.plain')).toEqual({
      name: 'alpha.plain',
      title: 'Plain tool',
      description: '[alpha] An ordinary tool with the newer fields.',
      inputSchema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
      outputSchema: {
        type: 'object',
        properties: { word: { type: 'string' }, server: { type: 'string' } },
        required: ['word', 'server'],
      },
      annotations: { readOnlyHint: true, title: 'Plain (annotation title)' },
      icons: [{ src: 'https://example.com/plain.png', mimeType: 'image/png', sizes: ['48x48'] }],
      _meta: { 'example.com/tool': 'plain' },
    });
    expect(tools.find(tool => tool.name === 'alpha.slow')?.execution).toEqual({ taskSupport: 'required' });
    expect(await hub.call('alpha.plain', { word: 'hello' })).toEqual({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'resource_link', uri: 'tasks://alpha/plain', name: 'plain', title: 'The plain resource' },
      ],
      structuredContent: { word: 'hello', server: 'alpha' },
      _meta: { 'example.com/result': 'alpha' },
    });
  });
});
