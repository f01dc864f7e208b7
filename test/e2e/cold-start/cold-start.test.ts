import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { askHub } from '../../../src/cold-start/ask-hub.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { initialize, initialized, spawnRawHub, type RawHub } from '../../helpers/raw-rpc.js';
import type { CachedTool } from '../../../src/store/schema.js';
import { ECHO, commandRecord, putRecords } from '../../proxy/harness.js';
import { writeToolCache } from '../../../src/store/tool-cache.js';

// The cold-start lane (src/cold-start/) answers initialize and tools/list before the SDK loads.
// These drive the built bin with raw JSON-RPC and compare every answer with a hub that never
// uses the lane (createHub in this process), byte for byte after parsing.

type Json = Record<string, unknown>;

const echoTools: CachedTool[] = [
  {
    name: 'echo',
    description: 'Echoes text.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  },
  { name: 'pid', description: 'Returns the server pid.', inputSchema: { type: 'object' } },
];
const longTools: CachedTool[] = [
  {
    name: 'a_tool_with_a_name_far_too_long_for_forty_characters',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: true },
  },
  { name: 'search', description: 'Shadow attempt.', inputSchema: { type: 'object' } },
];

async function seededHome(): Promise<string> {
  const home = await makeHubHome();
  const store = openStore(loadConfig({ HUB_HOME: home }).paths);
  await putRecords(
    store,
    commandRecord('echo', [ECHO], { tools: echoTools }),
    commandRecord('registry', [ECHO], { tools: longTools }),
  );
  // A store written before tools/<name>.json existed keeps its tools inline.
  await store.update(data => {
    data.servers.legacy = {
      ...commandRecord('legacy', [ECHO]),
      tools: [{ name: 'old', inputSchema: { type: 'object' } }],
    };
  });
  return home;
}

/** What a hub without the lane answers (createHub in this process, raw JSON-RPC). */
const referenceAnswers = (home: string, init: Json & { id: number }, env: Record<string, string> = {}) =>
  askHub({ HUB_HOME: home, ...env }, init);

// The lane answers until the full hub takes over, and a client that leaves with everything
// answered starts no hub at all: a call only the full hub answers makes it attach (and log) first.
async function fullHubAnswers(hub: RawHub): Promise<void> {
  hub.write({ id: 'full-hub', method: 'tools/call', params: { name: 'list_processes', arguments: {} } });
  expect((await hub.response('full-hub')).result).toBeDefined();
}

const laneAnswered = async (home: string): Promise<number[]> =>
  [...(await readFile(join(home, 'logs', 'hub.log'), 'utf8')).matchAll(/"coldStartAnswered":(\d+)/g)].map(match =>
    Number(match[1]),
  );

describe('cold-start lane', () => {
  test.each([
    ['underscore names by default, a supported protocol version', {}, '2025-06-18', 'echo_echo'],
    ['HUB_TOOL_NAMES=dotted, an unknown protocol version', { HUB_TOOL_NAMES: 'dotted' }, '1999-01-01', 'echo.echo'],
  ])(
    'answers initialize and tools/list as the full hub does: %s',
    async (_label, env: Record<string, string>, version, echo) => {
      const clientName = 'raw-test';
      const home = await seededHome();
      const hub = spawnRawHub(home, env);
      hub.write(initialize(1, clientName, version));
      const init = await hub.response(1);
      hub.write(initialized, { id: 'list', method: 'tools/list' });
      const list = await hub.response('list');
      await fullHubAnswers(hub);
      expect(await hub.end()).toBe(0);
      expect(await laneAnswered(home)).toEqual([2]);

      const reference = await referenceAnswers(home, initialize(1, clientName, version), env);
      expect(init).toEqual(reference.init);
      expect(list).toEqual(reference.list);
      const names = ((list.result as Json).tools as Json[]).map(tool => tool.name);
      // hub's 14 own tools (registry.configure included) beside the installed ones.
      expect(names).toHaveLength(14 + echoTools.length + longTools.length + 1);
      expect(names).toContain(echo);
      // The instructions name tools in the same spelling.
      expect(JSON.stringify((init.result as Json).instructions)).toContain(
        echo === 'echo_echo' ? 'registry_install' : 'registry.install',
      );
    },
  );

  test('hands off to the full hub: pipelined calls to hub and proxied tools are each answered once', async () => {
    const home = await seededHome();
    const hub = spawnRawHub(home);
    hub.write(
      initialize(1),
      initialized,
      { id: 7, method: 'ping' },
      { id: 2, method: 'tools/list' },
      { id: 3, method: 'tools/call', params: { name: 'list_processes', arguments: {} } },
      { id: 4, method: 'tools/call', params: { name: 'echo.echo', arguments: { text: 'through the hand-off' } } },
      { id: 5, method: 'ping' },
    );
    const call = (await hub.response(4)).result as Json;
    expect(call.content).toEqual([{ type: 'text', text: 'through the hand-off' }]);
    expect(((await hub.response(3)).result as Json).structuredContent).toMatchObject({ processes: [], total: 0 });
    expect((await hub.response(5)).result).toEqual({});
    expect((await hub.response(7)).result).toEqual({});
    // After the hand-off: a request the lane never saw.
    hub.write({ id: 6, method: 'tools/call', params: { name: 'echo.echo', arguments: { text: 'later' } } });
    expect(((await hub.response(6)).result as Json).content).toEqual([{ type: 'text', text: 'later' }]);
    expect(await hub.end()).toBe(0);

    const ids = hub.received.filter(message => !('method' in message)).map(message => message.id);
    expect(ids.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // initialize, ping and tools/list came from the lane; the rest from the full hub.
    expect(await laneAnswered(home)).toEqual([3]);
  });

  // Found by the protocol fuzz (seed 475831): the lane answered a "1.0" ping, then the full hub
  // refused the same replayed frame, so one id got two answers.
  test('a request that is not JSON-RPC 2.0 is left to the full hub: one answer, the refusal', async () => {
    const home = await seededHome();
    const hub = spawnRawHub(home);
    hub.write(initialize(1), initialized, { jsonrpc: '1.0', id: 7, method: 'ping' }, { id: 8, method: 'ping' });
    expect((await hub.response(7)).error).toMatchObject({ code: -32600 });
    expect((await hub.response(8)).result).toEqual({});
    expect(await hub.end()).toBe(0);
    expect(hub.received.filter(message => message.id === 7)).toHaveLength(1);
  });

  test('servers installed by another hub right after the lane listed tools: list_changed follows', async () => {
    const home = await seededHome();
    const hub = spawnRawHub(home);
    hub.write(initialize(1), initialized, { id: 2, method: 'tools/list' });
    await hub.response(2);
    // Another hub installs a server while this one is still loading (or just after).
    await putRecords(
      openStore(loadConfig({ HUB_HOME: home }).paths),
      commandRecord('late', [ECHO], { tools: echoTools }),
    );
    await vi.waitFor(
      () => expect(hub.received.some(message => message.method === 'notifications/tools/list_changed')).toBe(true),
      { timeout: 10_000 },
    );
    hub.write({ id: 3, method: 'tools/list' });
    const names = (((await hub.response(3)).result as Json).tools as Json[]).map(tool => tool.name);
    expect(names).toContain('late_echo');
    expect(await hub.end()).toBe(0);
  });

  test('leaves a store it cannot read plainly to the full hub, which salvages it', async () => {
    const home = await seededHome();
    const db = join(home, 'db.json');
    const data = JSON.parse(await readFile(db, 'utf8')) as { servers: Record<string, Json> };
    data.servers.broken = { name: 'broken', order: 99 }; // no command: the full hub drops it
    await writeFile(db, JSON.stringify(data));
    const hub = spawnRawHub(home);
    hub.write(initialize(1), initialized, { id: 'list', method: 'tools/list' });
    const list = await hub.response('list');
    expect(await hub.end()).toBe(0);
    expect(await laneAnswered(home)).toEqual([1]);
    const names = ((list.result as Json).tools as Json[]).map(tool => tool.name);
    expect(names).toContain('echo_echo');
    expect(names.some(name => String(name).startsWith('broken'))).toBe(false);
  });

  test('a toolNames setting in config.json is left to the full config validation', async () => {
    const home = await seededHome();
    await writeFile(join(home, 'config.json'), JSON.stringify({ toolNames: 'dotted' }));
    const hub = spawnRawHub(home);
    hub.write(initialize(1), initialized, { id: 'list', method: 'tools/list' });
    const list = await hub.response('list');
    expect(await hub.end()).toBe(0);
    // The spelling decides the instructions too, so even initialize waits for the full hub.
    expect(await laneAnswered(home)).toEqual([0]);
    expect(((list.result as Json).tools as Json[]).map(tool => tool.name)).toContain('echo.echo');
    expect(list).toEqual((await referenceAnswers(home, initialize(1))).list);
  });

  test('answers prompts/list, resources/list (every page) and resources/templates/list as the full hub does', async () => {
    const home = await seededHome();
    const paths = loadConfig({ HUB_HOME: home }).paths;
    const stamp = '2026-03-04T00:00:00.000Z';
    const surface = {
      prompts: [
        { name: 'review', title: 'Review', arguments: [{ name: 'file', required: true }] },
        { name: 'a_prompt_with_a_name_far_too_long_for_forty_characters' },
      ],
      resources: Array.from({ length: 250 }, (_, i) => ({ uri: `docs://page/${i}`, name: `page ${i}` })),
      resourceTemplates: [{ uriTemplate: 'docs://page/{n}', name: 'page' }],
    };
    const store = openStore(paths);
    await putRecords(store, commandRecord('docs', [ECHO], { toolsUpdatedAt: stamp }));
    await store.update(() => writeToolCache(paths, 'docs', echoTools, stamp, [], surface));

    const requests = [
      { id: 'prompts', method: 'prompts/list' },
      { id: 'resources', method: 'resources/list' },
      { id: 'templates', method: 'resources/templates/list', params: {} },
    ];
    const hub = spawnRawHub(home);
    hub.write(initialize(1), initialized, ...requests);
    const answers = [await hub.response('prompts'), await hub.response('resources'), await hub.response('templates')];
    // The next pages, with the lane's cursors (by now perhaps answered by the full hub: the same).
    const cursor2 = (answers[1]!.result as Json).nextCursor as string;
    hub.write({ id: 'page2', method: 'resources/list', params: { cursor: cursor2 } });
    const page2 = await hub.response('page2');
    const cursor3 = (page2.result as Json).nextCursor as string;
    hub.write({ id: 'page3', method: 'resources/list', params: { cursor: cursor3 } });
    const page3 = await hub.response('page3');
    await fullHubAnswers(hub);
    expect(await hub.end()).toBe(0);
    expect((await laneAnswered(home))[0]).toBeGreaterThanOrEqual(4);

    const more = [
      ...requests,
      { id: 'page2', method: 'resources/list', params: { cursor: cursor2 } },
      { id: 'page3', method: 'resources/list', params: { cursor: cursor3 } },
    ];
    const reference = await askHub({ HUB_HOME: home }, initialize(1), 'list', more);
    expect([...answers, page2, page3]).toEqual(reference.more);
    const prompts = (answers[0]!.result as Json).prompts as Json[];
    expect(prompts.map(prompt => prompt.name)).toEqual([
      'docs_review',
      expect.stringMatching(/^docs_a_prompt_.{1,30}$/),
    ]);
    const pages = [answers[1], page2, page3].map(page => ((page!.result as Json).resources as Json[]).length);
    // 250 of the servers', then hub's own two (hub://processes, hub://servers).
    expect(pages).toEqual([100, 100, 52]);
    expect((page3.result as Json).nextCursor).toBeUndefined();
  });

  test('stdin closing during the cold start ends hub with exit code 0', async () => {
    const home = await makeHubHome();
    const hub = spawnRawHub(home);
    hub.write(initialize(1));
    await hub.response(1);
    expect(await hub.end()).toBe(0);
  });
});
