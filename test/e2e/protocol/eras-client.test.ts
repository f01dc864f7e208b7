import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { fixture, spawnHub } from '../../helpers/hub.js';
import { initialize, initialized, spawnRawHub } from '../../helpers/raw-rpc.js';
import { v2Client, type Negotiation } from '../../helpers/v2-client.js';
import { ECHO, commandRecord, putRecords } from '../../proxy/harness.js';

// The client side of both protocol eras: the SDK's v2 client (2026-07-28, probing or pinned) and
// raw JSON-RPC against the built hub, with 2025-era children behind it.

type Json = Record<string, unknown>;
const MODERN = '2026-07-28';
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
const envelope = (extra: Json = {}): Json => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw-modern', version: '1.0.0' },
  ...extra,
});

async function homeWithChildren(): Promise<string> {
  const home = await makeHubHome();
  const store = openStore(loadConfig({ HUB_HOME: home }).paths);
  await putRecords(
    store,
    commandRecord('echo', [ECHO], {
      tools: [
        { name: 'echo', description: 'Echoes text.', inputSchema: { type: 'object' } },
        { name: 'add_tool', description: 'Adds a tool.', inputSchema: { type: 'object' } },
      ],
    }),
    commandRecord('bulk', [fixture('surface-server.mjs')], {
      tools: [
        { name: 'log', inputSchema: { type: 'object' } },
        { name: 'add_resource', inputSchema: { type: 'object' } },
      ],
    }),
  );
  return home;
}

const textOf = (result: { content?: unknown }): string =>
  ((result.content as { type: string; text?: string }[] | undefined)?.[0]?.text ?? '') as string;

const until = <T>(read: () => Promise<T | undefined>, what: string): Promise<T> =>
  vi.waitFor(
    async () => {
      const value = await read();
      if (value === undefined) throw new Error(`timed out waiting for ${what}`);
      return value;
    },
    { timeout: 15_000, interval: 100 },
  );

describe.each<Negotiation>(['pinned', 'auto'])('a v2 client (%s) through hub', negotiation => {
  test('discovers hub, lists, calls a proxied tool, gets a prompt, reads a resource, hears list_changed', async () => {
    const home = await homeWithChildren();
    // Its child adds a tool while it runs; not withheld for approval here (docs/security.md "Tool integrity").
    await writeFile(join(home, 'config.json'), JSON.stringify({ integrity: 'off' }));
    const client = await v2Client(home, negotiation);
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    expect(client.getServerVersion()).toMatchObject({ name: 'hub' });
    expect(client.getInstructions()).toContain('registry_search');

    const tools = (await client.listTools()).tools.map(tool => tool.name);
    expect(tools).toEqual(expect.arrayContaining(['registry_search', 'echo_echo', 'echo_add_tool']));
    // The v2 client refuses a tools/call result without resultType: this one went through the fast path.
    const echoed = await client.callTool({ name: 'echo_echo', arguments: { text: 'modern hello' } });
    expect(textOf(echoed)).toBe('modern hello');

    const changed = new Promise<Json>(resolve =>
      client.setNotificationHandler('notifications/tools/list_changed', notice => resolve(notice as Json)),
    );
    // Lists are cached for ttlMs: a listen for their changes is what refreshes them sooner.
    const everything = { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true };
    const subscription = await client.listen(everything);
    expect(subscription.honoredFilter).toEqual(everything);
    await client.callTool({ name: 'echo_add_tool', arguments: { name: 'late' } });
    await changed;
    await until(
      async () => ((await client.listTools()).tools.some(tool => tool.name === 'echo_late') ? true : undefined),
      'echo_late listed',
    );

    // The surface server starts on its first call; its prompts and resources are listed after.
    await client.callTool({ name: 'bulk_log', arguments: {} });
    const prompt = await until(async () => {
      const listed = (await client.listPrompts()).prompts.find(entry => entry.name === 'bulk_review');
      return listed && client.getPrompt({ name: 'bulk_review', arguments: { file: 'era.ts' } });
    }, 'bulk_review listed');
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Please review era.ts.' });
    const read = await client.readResource({ uri: 'bulk://item/7' });
    expect(read.contents[0]).toMatchObject({ uri: 'bulk://item/7', text: 'contents of bulk://item/7' });
    await subscription.close();
  });
});

describe('subscriptions/listen', () => {
  test("a listen on hub's own log resource receives its updates, stamped with the listen's id", async () => {
    const home = await makeHubHome();
    const client = await v2Client(home, 'pinned');
    const updated: Json[] = [];
    client.setNotificationHandler('notifications/resources/updated', notice => void updated.push(notice as Json));
    const started = await client.callTool({
      name: 'start_process',
      arguments: {
        command: process.execPath,
        args: ['-e', 'setInterval(() => console.log("tick"), 100)'],
        wait_for: { pattern: 'tick' },
      },
    });
    const id = ((started.structuredContent as Json).process as { id: string }).id;
    const uri = `hub://processes/${id}/log`;
    const subscription = await client.listen({ resourceSubscriptions: [uri, 'nowhere://x'] });
    // Only what some source owns is honoured.
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [uri] });
    await until(async () => (updated.length > 0 ? true : undefined), 'a resources/updated notification');
    expect(updated[0]).toMatchObject({
      params: { uri, _meta: { 'io.modelcontextprotocol/subscriptionId': expect.anything() } },
    });
    await subscription.close();
    await client.callTool({ name: 'kill_process', arguments: { id } });
  });
});

describe('the modern era on the wire (raw JSON-RPC)', () => {
  test('results carry resultType, the cache fields and serverInfo; errors name the version and the envelope', async () => {
    const home = await homeWithChildren();
    const hub = spawnRawHub(home);
    hub.write({ id: 'd', method: 'server/discover', params: { _meta: envelope() } });
    const discover = (await hub.response('d')).result as Json;
    expect(discover).toMatchObject({
      resultType: 'complete',
      supportedVersions: [MODERN, '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'],
      capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { subscribe: true } },
      ttlMs: 10_000,
      cacheScope: 'private',
      _meta: { [SERVER_INFO]: { name: 'hub' } },
    });
    expect(discover.instructions).toContain('registry_search');

    hub.write(
      { id: 'list', method: 'tools/list', params: { _meta: envelope() } },
      { id: 'call', method: 'tools/call', params: { name: 'echo_echo', arguments: { text: 'x' }, _meta: envelope() } },
      { id: 'own', method: 'tools/call', params: { name: 'list_processes', arguments: {}, _meta: envelope() } },
      { id: 'old', method: 'tools/list', params: { _meta: envelope({ [META_VERSION]: '2099-01-01' }) } },
      { id: 'bare', method: 'tools/list', params: { _meta: { [META_VERSION]: MODERN } } },
      { id: 'listen', method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true } } },
    );
    const list = (await hub.response('list')).result as Json;
    expect(list).toMatchObject({ resultType: 'complete', ttlMs: 10_000, cacheScope: 'private' });
    expect((list._meta as Json)[SERVER_INFO]).toMatchObject({ name: 'hub' });
    const call = (await hub.response('call')).result as Json;
    expect(call).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'x' }] });
    // A call result is not cacheable.
    expect(call.ttlMs).toBeUndefined();
    expect((await hub.response('own')).result).toMatchObject({ resultType: 'complete' });
    expect((await hub.response('old')).error).toMatchObject({
      code: -32022,
      data: { supported: [MODERN], requested: '2099-01-01' },
    });
    expect((await hub.response('bare')).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('io.modelcontextprotocol/clientCapabilities'),
    });
    expect((await hub.response('listen')).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('subscriptions/listen'),
    });
    expect(await hub.end()).toBe(0);
  });

  test("a child's log messages reach a 2026 client on the requests that name a logLevel, at that level", async () => {
    const home = await homeWithChildren();
    const hub = spawnRawHub(home);
    const LEVEL = 'io.modelcontextprotocol/logLevel';
    const call = (id: string, extra: Json = {}) => ({
      id,
      method: 'tools/call',
      params: { name: 'bulk_log', arguments: {}, _meta: envelope(extra) },
    });
    // No logLevel: nothing unasked. 'emergency': above what the child sends. 'error': its two errors.
    hub.write(call('quiet'));
    expect((await hub.response('quiet')).result).toMatchObject({ resultType: 'complete' });
    hub.write(call('high', { [LEVEL]: 'emergency' }));
    expect((await hub.response('high')).result).toMatchObject({ resultType: 'complete' });
    const before = hub.received.length;
    hub.write(call('loud', { [LEVEL]: 'error' }));
    expect((await hub.response('loud')).result).toMatchObject({ resultType: 'complete' });
    const logs = (messages: Json[]) => messages.filter(message => message.method === 'notifications/message');
    expect(logs(hub.received.slice(0, before))).toEqual([]);
    expect(logs(hub.received.slice(before)).map(message => message.params)).toEqual([
      { level: 'error', logger: 'bulk', data: 'db: connection lost' },
      { level: 'error', logger: 'bulk', data: { code: 7 } },
    ]);
    hub.write(call('bad', { [LEVEL]: 'loud' }));
    expect((await hub.response('bad')).error).toMatchObject({ code: -32602, message: expect.stringContaining(LEVEL) });
    expect(await hub.end()).toBe(0);
  });

  test('a 2025 client after initialize gets no modern fields', async () => {
    const home = await homeWithChildren();
    const hub = spawnRawHub(home);
    hub.write(initialize(1), initialized, { id: 2, method: 'tools/list' });
    hub.write({ id: 3, method: 'tools/call', params: { name: 'echo_echo', arguments: { text: 'y' } } });
    const list = (await hub.response(2)).result as Json;
    expect(Object.keys(list)).toEqual(['tools']);
    expect((await hub.response(3)).result).toEqual({ content: [{ type: 'text', text: 'y' }] });
    expect(await hub.end()).toBe(0);
  });

  test('the cold-start lane answers server/discover (and a modern tools/list) as the full hub does, no child started', async () => {
    const home = await homeWithChildren();
    const lane = spawnRawHub(home);
    lane.write(
      { id: 'd', method: 'server/discover', params: { _meta: envelope() } },
      { id: 'list', method: 'tools/list', params: { _meta: envelope() } },
    );
    const laneDiscover = await lane.response('d');
    const laneList = await lane.response('list');
    // A call only the full hub answers: the entry attaches (and the hub logs the lane's count) first.
    lane.write({
      id: 'full-hub',
      method: 'tools/call',
      params: { name: 'list_processes', arguments: {}, _meta: envelope() },
    });
    await lane.response('full-hub');
    expect(await lane.end()).toBe(0);
    const log = await readFile(join(home, 'logs', 'hub.log'), 'utf8');
    expect(log).toMatch(/"coldStartAnswered":2/);
    expect(existsSync(join(home, 'logs', 'servers'))).toBe(false);

    // An unknown method first makes the lane hand everything to the full hub.
    const full = spawnRawHub(home);
    full.write(
      { id: 'x', method: 'hub/unknown' },
      { id: 'd', method: 'server/discover', params: { _meta: envelope() } },
      { id: 'list', method: 'tools/list', params: { _meta: envelope() } },
    );
    expect(await full.response('d')).toEqual(laneDiscover);
    expect(await full.response('list')).toEqual(laneList);
    expect(await full.end()).toBe(0);
  });

  test('a 2025 client keeps working through the SDK client of today', async () => {
    const home = await homeWithChildren();
    const session = await spawnHub(home);
    const result = await session.call('echo_echo', { text: 'legacy' });
    expect(result).toEqual({ content: [{ type: 'text', text: 'legacy' }] });
    await session.close();
  });
});

const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
