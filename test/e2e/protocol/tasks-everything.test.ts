// MCP tasks (2025-11-25) through the built hub with @modelcontextprotocol/server-everything as a
// child: its simulate-research-query tool requires a task. A client without tasks gets it run for
// it inside an ordinary tools/call (status messages as progress, cancellation passed on); a client
// with tasks creates, polls, reads and cancels tasks through hub under hub's task ids; and the
// same server connected directly gives the same report.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CreateTaskResultSchema,
  ElicitRequestSchema,
  ListTasksResultSchema,
  TaskStatusNotificationSchema,
  type CallToolResult,
  type Progress,
  type Task,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, onTestFinished, test } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { baseDottedName, underscoreName } from '../../../src/core/exposed-names.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, textOf, type HubSession } from '../../helpers/hub.js';
import { commandRecord, putRecords, until } from '../../proxy/harness.js';

const EVERYTHING = fileURLToPath(
  new URL('../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const RESEARCH = underscoreName(baseDottedName('everything', 'simulate-research-query'));
const TASKS = { tasks: { list: {}, cancel: {} } };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function everythingHome(): Promise<string> {
  const home = await makeHubHome();
  await putRecords(openStore(loadConfig({ HUB_HOME: home }).paths), commandRecord('everything', [EVERYTHING]));
  return home;
}

/** hub with server-everything installed, started once so its tools are cached and listed. */
async function hubWithEverything(home: string, capabilities = {}): Promise<HubSession> {
  const hub = await spawnHub(home, { capabilities });
  onTestFinished(() => hub.close());
  await hub.call('registry_call', { server: 'everything', tool: 'echo', arguments: { message: 'hi' } });
  await until(async () => expect((await hub.client.listTools()).tools.map(tool => tool.name)).toContain(RESEARCH));
  return hub;
}

async function direct(): Promise<Client> {
  const client = new Client({ name: 'direct', version: '1.0.0' }, { capabilities: TASKS });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING], stderr: 'ignore' }));
  onTestFinished(() => client.close());
  // callToolStream makes a task-augmented call only for a tool it has seen listed as one.
  await client.listTools();
  return client;
}

/** The task-augmented call as a client with tasks makes it, to the end: every message it yields. */
async function streamed(client: Client, name: string, topic: string, ambiguous = false) {
  const messages = [];
  for await (const message of client.experimental.tasks.callToolStream({ name, arguments: { topic, ambiguous } })) {
    messages.push(message);
  }
  return messages;
}

/** Answers the research tool's question (elicitation) with this interpretation; returns the questions asked. */
function answering(client: Client, interpretation: string): { message: string; task: unknown }[] {
  const asked: { message: string; task: unknown }[] = [];
  client.setRequestHandler(ElicitRequestSchema, request => {
    asked.push({
      message: request.params.message,
      task: request.params._meta?.['io.modelcontextprotocol/related-task'],
    });
    return { action: 'accept', content: { interpretation } };
  });
  return asked;
}

const resultOf = (messages: Awaited<ReturnType<typeof streamed>>): CallToolResult => {
  const last = messages.at(-1);
  if (last?.type !== 'result') throw new Error(`the stream ended with ${JSON.stringify(last)}`);
  return last.result as CallToolResult;
};

describe('simulate-research-query (a task-required tool) through hub', () => {
  test('a client without tasks: run inside an ordinary call, status as progress, cancellation passed on', async () => {
    const hub = await hubWithEverything(await everythingHome());
    const listed = (await hub.client.listTools()).tools.find(tool => tool.name === RESEARCH);
    // To this client it is an ordinary tool (an SDK client refuses to call a "required" one without a task).
    expect(listed?.execution?.taskSupport).toBeUndefined();
    expect(listed?.title).toBe('Simulate Research Query');

    const progress: Progress[] = [];
    const result = (await hub.client.callTool({ name: RESEARCH, arguments: { topic: 'tides' } }, undefined, {
      onprogress: step => progress.push(step),
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('# Research Report: tides');
    // Each stage's status message arrived as progress, in order, with a rising progress value.
    const messages = progress.map(step => step.message);
    for (const stage of [
      'Gathering sources...',
      'Analyzing content...',
      'Synthesizing findings...',
      'Generating report...',
    ])
      expect(messages).toContain(stage);
    expect(progress.map(step => step.progress)).toEqual([...progress.map(step => step.progress)].sort((a, b) => a - b));

    // Cancelled mid-run: the call ends, and the child's task is cancelled (tasks/list shows what hub saw).
    const abort = new AbortController();
    const cancelled = hub.client.callTool({ name: RESEARCH, arguments: { topic: 'cancel me' } }, undefined, {
      signal: abort.signal,
      onprogress: step => {
        if (step.message === 'Analyzing content...') abort.abort('enough');
      },
    });
    await expect(cancelled).rejects.toThrow();
    await until(async () => {
      const { tasks } = await hub.client.request({ method: 'tasks/list' }, ListTasksResultSchema);
      expect(tasks.map(task => task.status)).toContain('cancelled');
    });
    // hub still answers, and the same tool runs again.
    const again = (await hub.client.callTool({ name: RESEARCH, arguments: { topic: 'again' } })) as CallToolResult;
    expect(textOf(again)).toContain('# Research Report: again');
  });

  test('a client without tasks answers the question the task asks (input_required: its elicitation is relayed)', async () => {
    const hub = await hubWithEverything(await everythingHome(), { elicitation: {} });
    const asked = answering(hub.client, 'snake');
    const result = (await hub.client.callTool({
      name: RESEARCH,
      arguments: { topic: 'python', ambiguous: true },
    })) as CallToolResult;
    expect(textOf(result)).toContain('# Research Report: python (snake)');
    expect(asked).toHaveLength(1);
    expect(asked[0]?.message).toContain('"python" could have multiple interpretations');
    // The task it belongs to is named by hub's id (this client never saw the child's).
    expect(asked[0]?.task).toEqual({ taskId: expect.stringMatching(UUID) });
  });

  test('a client with tasks: create, poll, result, status notifications and cancel, beside the server connected directly', async () => {
    const hub = await hubWithEverything(await everythingHome(), { ...TASKS, elicitation: {} });
    const asked = answering(hub.client, 'comedy');
    const statuses: Task[] = [];
    hub.client.setNotificationHandler(TaskStatusNotificationSchema, notice => {
      statuses.push(notice.params);
    });
    const listed = (await hub.client.listTools()).tools.find(tool => tool.name === RESEARCH);
    expect(listed?.execution).toEqual({ taskSupport: 'required' });

    const plain = await direct();
    const [mine, theirs] = await Promise.all([
      streamed(hub.client, RESEARCH, 'coral'),
      streamed(plain, 'simulate-research-query', 'coral'),
    ]);
    // Created, polled with tasks/get until it completed, then read with tasks/result.
    const created = mine[0];
    if (created?.type !== 'taskCreated') throw new Error(`first message: ${JSON.stringify(created)}`);
    const id = created.task.taskId;
    expect(id).toMatch(UUID);
    expect(mine.filter(message => message.type === 'taskStatus').length).toBeGreaterThan(0);
    const result = resultOf(mine);
    expect(result.content).toEqual(resultOf(theirs).content);
    // The related-task _meta names hub's id, never the child's.
    expect(result._meta?.['io.modelcontextprotocol/related-task']).toEqual({ taskId: id });
    // The child's status notifications were relayed under hub's id.
    await until(() =>
      expect(statuses.filter(task => task.taskId === id).map(task => task.status)).toContain('completed'),
    );
    expect(statuses.every(task => task.taskId === id)).toBe(true);
    const got = await hub.client.experimental.tasks.getTask(id);
    expect(got).toMatchObject({ taskId: id, status: 'completed' });

    // Another one, cancelled while it works.
    const second = await hub.client.request(
      { method: 'tools/call', params: { name: RESEARCH, arguments: { topic: 'abandoned' }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    const other = second.task.taskId;
    expect(other).toMatch(UUID);
    expect(other).not.toBe(id);
    expect((await hub.client.experimental.tasks.getTask(other)).status).toBe('working');
    const stopped = await hub.client.experimental.tasks.cancelTask(other);
    expect(stopped).toMatchObject({ taskId: other, status: 'cancelled' });
    expect((await hub.client.experimental.tasks.getTask(other)).status).toBe('cancelled');
    const { tasks } = await hub.client.experimental.tasks.listTasks();
    expect(tasks.map(task => [task.taskId, task.status])).toEqual([
      [id, 'completed'],
      [other, 'cancelled'],
    ]);
    // A task that asks a question (input_required): tasks/result through hub delivers it, and the answer goes back.
    const questioned = await streamed(hub.client, RESEARCH, 'python', true);
    expect(textOf(resultOf(questioned))).toContain('# Research Report: python (comedy)');
    expect(asked).toEqual([
      {
        message: expect.stringContaining('"python" could have multiple interpretations'),
        task: { taskId: questioned[0]?.type === 'taskCreated' ? questioned[0].task.taskId : 'none' },
      },
    ]);
    // An id hub never gave is not found (never passed to a child as it is).
    await expect(hub.client.experimental.tasks.getTask('1')).rejects.toThrow(/Task not found/);

    // The child's negotiated revision is shown by registry.list { server }.
    const listing = await hub.call('registry_list', { server: 'everything' });
    expect((listing.structuredContent as { servers: { protocolVersion?: string }[] }).servers[0]?.protocolVersion).toBe(
      '2025-11-25',
    );
  });
});
