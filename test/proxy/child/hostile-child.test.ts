// Hostile children (test/fixtures/hostile-child.mjs, raw stdio): whatever one writes, hub stays
// up, answers each caller under its own id only, and the other servers' tools stay listed.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { pino } from 'pino';
import { describe, expect, onTestFinished, test } from 'vitest';
import type { Logger } from '../../../src/core/logger.js';
import { loadConfig } from '../../../src/core/config/config.js';
import { fastResponse, objectEnd } from '../../../src/wire/raw-result.js';
import { createFastPath } from '../../../src/wire/fast-path.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { fixture, spawnHub, startHubInProcess, textOf, type HubSession } from '../../helpers/hub.js';
import { ECHO, commandRecord, putRecords, startHarness, until } from '../harness.js';

const HOSTILE = fixture('hostile-child.mjs');
const hostileRecord = (name: string, env: Record<string, string> = {}) =>
  commandRecord(name, [HOSTILE], { env, tools: [{ name: 'say', inputSchema: { type: 'object' } }] });

// Installed next to every hostile child: its tools must stay listed whatever the other one does.
const echoRecord = () =>
  commandRecord('echo', [ECHO], {
    tools: [{ name: 'echo', description: 'Echoes text.', inputSchema: { type: 'object' } }],
  });

/** A HUB_HOME with the echo server and one hostile server named "bad" installed. */
async function homeWith(env: Record<string, string>): Promise<string> {
  const home = await makeHubHome();
  await putRecords(openStore(loadConfig({ HUB_HOME: home }).paths), echoRecord(), hostileRecord('bad', env));
  return home;
}

const plain = (name: string) => name.replace('.', '_');
const byName = (tools: Tool[], name: string) => tools.find(tool => plain(tool.name) === name);

async function inProcess(home: string): Promise<HubSession> {
  const hub = await startHubInProcess(home);
  onTestFinished(() => hub.close());
  return hub;
}

type Issue = { tool: string; action: string; reason: string };
async function issuesOf(hub: HubSession): Promise<Issue[]> {
  const listed = await hub.call('registry.list', { server: 'bad' });
  expect(listed.isError, textOf(listed)).toBeFalsy();
  return (listed.structuredContent as { toolIssues?: Issue[] }).toolIssues ?? [];
}

const ids = (line: string): string[] => [...line.matchAll(/"id":("[^"]*"|\d+)/g)].map(match => match[1] ?? '');

describe('a result carrying a second "id"', () => {
  test('fastResponse leaves lines with any member besides result and our id to JSON.parse', () => {
    const r = '{"content":[{"type":"text","text":"x"}]}';
    for (const line of [
      `{"jsonrpc":"2.0","id":"hub-1","result":${r},"id":7}`,
      `{"jsonrpc":"2.0","id":"hub-1","result":${r},"id":"c1"}`,
      `{"result":${r},"id":7,"jsonrpc":"2.0","id":"hub-1"}`,
      `{"result":${r}}{"result":${r},"jsonrpc":"2.0","id":"hub-1"}`,
      `{"jsonrpc":"2.0","id":"hub-1","result":{"a":"}"},"id":7}`,
    ])
      expect(fastResponse(line), line).toBeUndefined();
    // A backslash escaping a backslash does not escape the quote after it.
    const backslash = '{"a":"x\\\\","b":["\\"}"]}';
    expect(JSON.parse(backslash)).toEqual({ a: 'x\\', b: ['"}'] });
    expect(objectEnd(backslash, 0)).toBe(backslash.length - 1);
    expect(objectEnd('{"a":"never closed}', 0)).toBe(-1);
    // Brackets and quotes inside strings do not end the result early.
    const tricky = '{"content":[{"type":"text","text":"} ] \\" },\\"id\\":7 {"}]}';
    expect(fastResponse(`{"jsonrpc":"2.0","id":"hub-4","result":${tricky}}`)?.id).toBe('hub-4');
    expect(fastResponse(`{"result":${tricky},"jsonrpc":"2.0","id":"hub-5"}`)?.id).toBe('hub-5');
  });

  test('is never delivered to another in-flight call, and the right caller gets its answer', async () => {
    const home = await makeHubHome();
    const h = await startHarness(home, { manager: { callTimeoutMs: 1500 } });
    await putRecords(h.store, hostileRecord('bad'));
    await h.manager.reload();
    const lines: string[] = [];
    const fast = createFastPath(
      name => h.manager.fast(name),
      line => {
        lines.push(line);
        return Promise.resolve();
      },
    );
    const send = (id: string, args: Record<string, unknown>) =>
      expect(fast({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'bad.say', arguments: args } })).toBe(
        true,
      );
    // A waits in the child; B's answer names A as a second id, after ours and before it.
    send('A', { mode: 'hold', text: 'for A' });
    await until(() => expect(h.manager.status('bad')).resolves.toMatchObject([{ state: 'ready' }]));
    send('B', { mode: 'second-id', text: 'for B', steal: 'A' });
    send('C', { mode: 'second-id-last', text: 'for C', steal: 'A' });
    await until(() => expect(lines.length).toBeGreaterThanOrEqual(3));
    for (const line of lines) expect(ids(line), line).toHaveLength(1);
    const byId = new Map(lines.map(line => [(JSON.parse(line) as { id: string }).id, line]));
    expect(byId.get('A')).toContain('for A');
    expect(byId.get('C')).toContain('for C');
    // B's line named two ids: it answers nobody (B ends in its timeout, as with a silent child).
    expect(byId.get('B') ?? '').not.toContain('for B');
  });
});

// A logger that keeps its records, to see what hub said.
function recordingLogger(): { log: Logger; records: { level: number; msg: string; server?: string }[] } {
  const records: { level: number; msg: string; server?: string }[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => void records.push(JSON.parse(line)) });
  return { log, records };
}

describe('spoofed responses', () => {
  test('responses to requests hub never sent are said once in the log; the real answer still arrives', async () => {
    const home = await makeHubHome();
    const { log, records } = recordingLogger();
    const h = await startHarness(home, { log, manager: { callTimeoutMs: 30_000 } });
    await putRecords(h.store, hostileRecord('bad'));
    await h.manager.reload();
    expect(textOf(await h.call('bad.say', { mode: 'spoof', text: 'real answer' }))).toBe('real answer');
    expect(textOf(await h.call('bad.say', { mode: 'spoof', text: 'again' }))).toBe('again');
    const warned = records.filter(record => record.level === 40 && /never sent/.test(record.msg));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ server: 'bad' });
    // The later ones are still in the log, at debug level.
    expect(records.filter(record => record.level === 20 && /never sent/.test(record.msg)).length).toBeGreaterThan(1);
  });

  test('a malformed answer to a request fails that request at once, saying so, rather than at its timeout', async () => {
    const home = await makeHubHome();
    const { log, records } = recordingLogger();
    // A long timeout: the old behaviour (the answer dropped, the request waiting) fails the test on time.
    const h = await startHarness(home, { log, manager: { callTimeoutMs: 600_000 } });
    await putRecords(h.store, hostileRecord('bad', { HOSTILE_LIST: 'malformed' }));
    await h.manager.reload();
    const result = await h.call('bad.say', { mode: 'echo', text: 'x' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/malformed response/);
    expect(records.some(record => record.level === 40 && /malformed response/.test(record.msg))).toBe(true);
  }, 30_000);
});

describe('what hub takes from a tools/list', () => {
  test('malformed schemas: each tool read on its own, a missing type becomes "object", the rest is reported', async () => {
    const home = await homeWith({ HOSTILE_TOOLS: 'malformed' });
    const hub = await inProcess(home);
    // The first call starts the child; hub caches what it took from its list.
    expect(textOf(await hub.call('bad.say', { text: 'up' }))).toBe('up');
    const { tools } = await hub.client.listTools();
    expect(byName(tools, 'echo_echo')).toBeDefined();
    const names = tools.map(tool => plain(tool.name)).filter(name => name.startsWith('bad_'));
    expect(names).toEqual(['bad_say', 'bad_gitlab_like', 'bad_untyped_output', 'bad_long_description', 'bad_last_ok']);
    // Only the missing type is added; $schema and everything else pass unchanged.
    expect(byName(tools, 'bad_gitlab_like')?.inputSchema).toEqual({
      type: 'object',
      $schema: 'http://json-schema.org/draft-07/schema#',
      properties: { id: { type: 'string' } },
      required: ['id'],
      additionalProperties: false,
    });
    expect(byName(tools, 'bad_untyped_output')?.outputSchema).toEqual({
      type: 'object',
      properties: { n: { type: 'number' } },
    });
    expect(byName(tools, 'bad_say')?.title).toBe('Say It');
    const description = byName(tools, 'bad_long_description')?.description ?? '';
    expect(Buffer.byteLength(description)).toBeLessThan(9000);
    expect(description).toContain('[cut by hub: the description was 50000 bytes]');

    const issues = await issuesOf(hub);
    const reasonOf = (tool: string) => issues.find(issue => issue.tool === tool);
    expect(reasonOf('string_schema')).toMatchObject({
      action: 'skipped',
      reason: expect.stringContaining('inputSchema.type is "string"'),
    });
    expect(reasonOf('no_schema')).toMatchObject({ action: 'skipped', reason: 'inputSchema is missing' });
    expect(reasonOf('#5')).toMatchObject({ action: 'skipped', reason: 'it has no name' });
    expect(reasonOf('bad_output')).toMatchObject({
      action: 'skipped',
      reason: expect.stringContaining('outputSchema.type is "array"'),
    });
    expect(reasonOf('#8')).toMatchObject({ action: 'skipped' });
    expect(reasonOf('huge_schema')).toMatchObject({ action: 'skipped', reason: expect.stringContaining('over hub') });
    expect(reasonOf('long_description')).toMatchObject({ action: 'trimmed' });
    expect(textOf(await hub.call('bad.gitlab_like', { text: 'gitlab ok' }))).toBe('gitlab ok');
  });

  test('a 10 MB tools/list is bounded: every new session still connects and lists, other tools stay', async () => {
    const home = await homeWith({ HOSTILE_TOOLS: 'huge' });
    const first = await inProcess(home);
    expect(textOf(await first.call('bad.say', { text: 'up' }))).toBe('up');
    const issues = await issuesOf(first);
    expect(issues.at(-1)?.reason).toMatch(/tools over hub's limit/);
    // A new session over stdio: the SDK client reads at most 10 MiB per message. Every tool is
    // listed (HUB_EXPOSURE=all): what is bounded here is the list, not a capped client's share of it.
    const second = await spawnHub(home, { env: { HUB_EXPOSURE: 'all' } });
    onTestFinished(() => second.close());
    const { tools } = await second.client.listTools();
    expect(byName(tools, 'echo_echo')).toBeDefined();
    expect(byName(tools, 'bad_say')).toBeDefined();
    expect(Buffer.byteLength(JSON.stringify(tools))).toBeLessThan(2 * 1024 * 1024);
    // ...and can still remove the server through hub.
    const removed = await second.call('registry.uninstall', { name: 'bad' });
    expect(removed.isError, textOf(removed)).toBeFalsy();
  });

  test('a stdout flood before initialize: the child still starts, hub stays up', async () => {
    const home = await homeWith({ HOSTILE_FLOOD: String(4 * 1024 * 1024) });
    const hub = await inProcess(home);
    expect(textOf(await hub.call('bad.say', { text: 'after the flood' }))).toBe('after the flood');
    expect(byName((await hub.client.listTools()).tools, 'echo_echo')).toBeDefined();
  });
});

describe('a child list that does not depend on the client', () => {
  test('two clients with different capabilities start the same child and get the same list', async () => {
    const home = await makeHubHome();
    const rich = await startHarness(home, { capabilities: { sampling: {}, elicitation: {}, roots: {} } });
    await putRecords(rich.store, hostileRecord('bad', { HOSTILE_TOOLS: 'by-client' }));
    const fromRich = (await rich.manager.start('bad')).map(tool => tool.name);
    await rich.close();
    const bare = await startHarness(home, { capabilities: {} });
    const fromBare = (await bare.manager.start('bad')).map(tool => tool.name);
    expect(fromBare).toEqual(fromRich);
    expect(fromBare).toEqual(expect.arrayContaining(['uses_sampling', 'uses_elicitation', 'uses_roots']));
  });
});
