// Prompts, resources, completions and logging of child servers through a real hub (createHub, in
// this process, a real SDK Client) and a real SDK-built child with 1,000 resources
// (fixtures/surface-server.mjs): pagination over the whole, routing by URI, progress and
// cancellation, log messages relayed and written to the server's log.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  LoggingMessageNotificationSchema,
  ResourceListChangedNotificationSchema,
  type LoggingMessageNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome, makeScratchDir } from '../../helpers/home.js';
import { fixture, startHubInProcess, textOf, type HubSession } from '../../helpers/hub.js';
import { commandRecord, putRecords, until } from '../harness.js';

const SURFACE = fixture('surface-server.mjs');
type Json = Record<string, unknown>;

async function hubWith(...records: Parameters<typeof putRecords>[1][]): Promise<{ hub: HubSession; home: string }> {
  const home = await makeHubHome();
  await putRecords(openStore(loadConfig({ HUB_HOME: home }).paths), ...records);
  const hub = await startHubInProcess(home, { env: { HUB_TOOL_NAMES: 'dotted' } });
  return { hub, home };
}

/** The surface child installed as "bulk", writing what it receives to events.log (outside HUB_HOME: the child is sandboxed). */
async function bulkWithEvents(): Promise<{ hub: HubSession; home: string; events: string }> {
  const home = await makeHubHome();
  const events = join(await makeScratchDir(), 'events.log');
  await putRecords(
    openStore(loadConfig({ HUB_HOME: home }).paths),
    commandRecord('bulk', [SURFACE], { env: { SURFACE_EVENTS: events } }),
  );
  const hub = await startHubInProcess(home, { env: { HUB_TOOL_NAMES: 'dotted' } });
  progressBeforeResult(hub);
  return { hub, home, events };
}

/**
 * The SDK client drops a progress notification read in the same chunk as its result (it settles the
 * response at once and runs the notification a microtask later). hub writes them in order; this test
 * client takes them in order too, so what is checked is the order hub keeps.
 */
function progressBeforeResult(hub: HubSession): void {
  const transport = (hub.client as unknown as { transport: { onmessage?: (m: object, x?: unknown) => void } })
    .transport;
  const deliver = transport.onmessage;
  if (deliver === undefined) throw new Error('client not connected');
  transport.onmessage = (message, extra) =>
    'method' in message ? deliver(message, extra) : queueMicrotask(() => deliver(message, extra));
}

/** A started child's lists are read behind its first call: wait until they are cached. */
const cached = (hub: HubSession, count: number) =>
  until(async () => expect((await allResources(hub)).uris).toHaveLength(count));

async function allResources(hub: HubSession): Promise<{ uris: string[]; pages: number }> {
  const uris: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await hub.client.listResources(cursor === undefined ? {} : { cursor });
    // hub's own resources (hub://…) come after the servers'; these tests count the servers'.
    uris.push(...page.resources.map(resource => resource.uri).filter(uri => !uri.startsWith('hub://')));
    cursor = page.nextCursor;
    pages += 1;
  } while (cursor !== undefined);
  return { uris, pages };
}

describe('a child with 1,000 resources, prompts and log messages, through hub', () => {
  test('lists are empty, never "method not found", before any server offers them', async () => {
    const { hub } = await hubWith();
    expect((await hub.client.listPrompts()).prompts).toEqual([]);
    // Only hub's own resources (hub://processes, hub://servers and the log template) are listed.
    const own = (uri: string) => uri.startsWith('hub://');
    expect((await hub.client.listResources()).resources.filter(resource => !own(resource.uri))).toEqual([]);
    expect(
      (await hub.client.listResourceTemplates()).resourceTemplates.filter(template => !own(template.uriTemplate)),
    ).toEqual([]);
    const completion = await hub.client.complete({
      ref: { type: 'ref/prompt', name: 'nobody.nothing' },
      argument: { name: 'x', value: '' },
    });
    expect(completion.completion.values).toEqual([]);
    await hub.client.setLoggingLevel('debug');
    await expect(hub.client.readResource({ uri: 'bulk://item/1' })).rejects.toThrow(
      /Resource not found: bulk:\/\/item\/1/,
    );
    await hub.close();
  });

  test('every resource across hub pages, each read from the child; prompts named like tools', async () => {
    const { hub } = await hubWith(commandRecord('bulk', [SURFACE]));
    // Nothing cached yet: a first start (registry.call would do it) lists everything, every page.
    expect(textOf(await hub.call('registry.call', { server: 'bulk', tool: 'log' }))).toContain('logged');
    await cached(hub, 1001);
    const { uris, pages } = await allResources(hub);
    expect(uris).toHaveLength(1001);
    expect(new Set(uris).size).toBe(1001);
    expect(pages).toBe(11);
    expect(uris[999]).toBe('bulk://item/999');

    const read = await hub.client.readResource({ uri: 'bulk://item/999' });
    expect(read.contents).toEqual([
      { uri: 'bulk://item/999', mimeType: 'text/plain', text: 'contents of bulk://item/999' },
    ]);
    // Not listed, but matching the child's template: routed to it.
    expect((await hub.client.readResource({ uri: 'bulk://item/5000' })).contents[0]).toMatchObject({
      text: 'contents of bulk://item/5000',
    });
    expect(
      (await hub.client.listResourceTemplates()).resourceTemplates.filter(t => !t.uriTemplate.startsWith('hub://')),
    ).toEqual([{ uriTemplate: 'bulk://item/{id}', name: 'item', title: 'An item by number' }]);
    await expect(hub.client.listResources({ cursor: 'not-a-cursor' })).rejects.toThrow(/params.cursor/);

    const { prompts } = await hub.client.listPrompts();
    expect(prompts.map(prompt => prompt.name)).toEqual(['bulk.review', 'bulk.slow']);
    expect(prompts[0]).toEqual({
      name: 'bulk.review',
      title: 'Review a file',
      description: '[bulk] Asks for a review.',
      arguments: [{ name: 'file', description: 'Which file', required: true }],
      icons: [{ src: 'https://example.com/review.png', mimeType: 'image/png' }],
    });
    const got = await hub.client.getPrompt({ name: 'bulk.review', arguments: { file: 'main.ts' } });
    expect(got.messages[0]?.content).toEqual({ type: 'text', text: 'Please review main.ts.' });
    await expect(hub.client.getPrompt({ name: 'bulk.nothing' })).rejects.toThrow(/Unknown prompt: bulk.nothing/);

    const byPrompt = await hub.client.complete({
      ref: { type: 'ref/prompt', name: 'bulk.review' },
      argument: { name: 'file', value: 'm' },
    });
    expect(byPrompt.completion.values).toEqual(['main.ts', 'mode.ts']);
    const byTemplate = await hub.client.complete({
      ref: { type: 'ref/resource', uri: 'bulk://item/{id}' },
      argument: { name: 'id', value: '1' },
    });
    expect(byTemplate.completion.values).toEqual(['1', '10', '100']);
    await hub.close();
  });

  test('progress of a read and a prompt reaches the caller; a cancelled read is cancelled in the child', async () => {
    const { hub, events } = await bulkWithEvents();
    // Installed without a first start: nothing is cached, so nothing is listed until it runs.
    await expect(hub.client.readResource({ uri: 'bulk://slow' })).rejects.toThrow(/Resource not found/);
    await hub.call('registry.call', { server: 'bulk', tool: 'log' });
    await cached(hub, 1001);
    const readProgress: number[] = [];
    const read = await hub.client.readResource(
      { uri: 'bulk://slow' },
      { onprogress: p => readProgress.push(p.progress) },
    );
    expect(read.contents[0]).toMatchObject({ text: 'contents of bulk://slow' });
    expect(readProgress).toEqual([1, 2, 3]);
    const promptProgress: number[] = [];
    await hub.client.getPrompt({ name: 'bulk.slow' }, { onprogress: p => promptProgress.push(p.progress) });
    expect(promptProgress).toEqual([1, 2, 3]);

    const abort = new AbortController();
    const hanging = hub.client.readResource(
      { uri: 'bulk://item/hang' },
      { signal: abort.signal, onprogress: () => abort.abort('enough') },
    );
    await expect(hanging).rejects.toThrow();
    await until(async () => expect(await readFile(events, 'utf8')).toContain('cancelled hang read'));
    await hub.close();
  });

  test('log messages at the level the client set, logger = server, also in logs/servers/<name>.log', async () => {
    const { hub, home, events } = await bulkWithEvents();
    const messages: LoggingMessageNotification['params'][] = [];
    hub.client.setNotificationHandler(LoggingMessageNotificationSchema, notice => {
      messages.push(notice.params);
    });
    // Set before the child runs: it gets the level when it starts.
    await hub.client.setLoggingLevel('debug');
    await hub.call('registry.call', { server: 'bulk', tool: 'log' });
    await until(() => expect(messages).toHaveLength(3));
    expect(messages).toEqual([
      { level: 'debug', logger: 'bulk', data: 'db: debug detail' },
      { level: 'error', logger: 'bulk', data: 'db: connection lost' },
      { level: 'error', logger: 'bulk', data: { code: 7 } },
    ]);
    // And to the running child when it changes.
    await hub.client.setLoggingLevel('error');
    expect(await readFile(events, 'utf8')).toMatch(/level debug\nlevel error/);
    messages.length = 0;
    await hub.call('bulk.log');
    await until(() => expect(messages).toHaveLength(2));
    expect(messages.map(message => message.level)).toEqual(['error', 'error']);
    const log = await readFile(join(home, 'logs', 'servers', 'bulk.log'), 'utf8');
    expect(log).toContain('[error] db: connection lost');
    expect(log).toContain('[debug] db: debug detail');
    await hub.close();
  });

  test("a child's resources/list_changed refreshes the cache and reaches the client", async () => {
    const { hub, home } = await hubWith(commandRecord('bulk', [SURFACE]));
    let changed = 0;
    hub.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      changed += 1;
    });
    await hub.call('registry.call', { server: 'bulk', tool: 'add_resource' });
    await cached(hub, 1002);
    const { uris } = await allResources(hub);
    expect(uris.at(-1)).toBe('bulk://added/1001');
    expect(changed).toBeGreaterThan(0);
    const cache = JSON.parse(await readFile(join(home, 'tools', 'bulk.json'), 'utf8')) as { surface: Json };
    expect((cache.surface.resources as Json[]).at(-1)).toMatchObject({ uri: 'bulk://added/1001' });
    await hub.close();
  });

  test('two servers listing the same URI: both listed, a read refused naming both', async () => {
    const { hub } = await hubWith(commandRecord('one', [SURFACE]), commandRecord('two', [SURFACE]));
    await hub.call('registry.call', { server: 'one', tool: 'log' });
    await hub.call('registry.call', { server: 'two', tool: 'log' });
    await cached(hub, 2002);
    const { uris } = await allResources(hub);
    expect(uris.filter(uri => uri === 'bulk://item/3')).toHaveLength(2);
    await expect(hub.client.readResource({ uri: 'bulk://item/3' })).rejects.toThrow(
      /bulk:\/\/item\/3 is offered by more than one server \("one", "two"\)/,
    );
    // Prompts collide like tools: both stay reachable, under distinct names.
    const names = (await hub.client.listPrompts()).prompts.map(prompt => prompt.name);
    expect(names).toEqual(['one.review', 'one.slow', 'two.review', 'two.slow']);
    await hub.close();
  });
});
