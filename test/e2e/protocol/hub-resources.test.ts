// hub's own resources over stdio (the built dist/server.js, a real SDK Client): hub://processes
// is what list_processes returns, a process's log reads as text and its subscription gets
// coalesced updates while it prints and when it ends, hub://servers shows an installed server,
// and start_process / get_process_logs link to the log resource.
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import {
  McpError,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type CallToolResult,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test, vi } from 'vitest';
import { makeHubHome, sharedFile } from '../../helpers/home.js';
import { stopSharedHubIn } from '../../helpers/shared-hub.js';
import { fixture, spawnHub, textOf, type HubSession } from '../../helpers/hub.js';

type LogMeta = { id: string; status: string; next_cursor: number; next_uri: string; truncated: boolean };

const ok = (result: CallToolResult): Record<string, unknown> => {
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent as Record<string, unknown>;
};
const textIn = (result: ReadResourceResult): string => {
  const [first] = result.contents;
  return first && 'text' in first ? first.text : '';
};
const metaOf = (result: ReadResourceResult): LogMeta => (result._meta as Record<string, LogMeta>)['hub/log']!;

/** Counts notifications/resources/updated per URI, and when the last one arrived. */
function updates(hub: HubSession): Map<string, number> & { lastAtMs: number } {
  const counts = Object.assign(new Map<string, number>(), { lastAtMs: 0 });
  hub.client.setNotificationHandler(ResourceUpdatedNotificationSchema, notification => {
    counts.set(notification.params.uri, (counts.get(notification.params.uri) ?? 0) + 1);
    counts.lastAtMs = Date.now();
  });
  return counts;
}

/** A process that prints every 50 ms, subscribed: its updates say that windows of output passed. */
async function ticking(hub: HubSession): Promise<string> {
  const started = ok(
    await hub.call('start_process', {
      command: process.execPath,
      args: ['-e', 'setInterval(() => console.log("tick", Date.now()), 50)'],
      wait_for: { pattern: 'tick' },
    }),
  );
  const uri = `hub://processes/${(started.process as { id: string }).id}/log`;
  await hub.client.subscribeResource({ uri });
  return uri;
}

async function rpcError(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

const gatedFlood = async (hub: HubSession, writes: number) => {
  const gates = await mkdtemp(join(await makeHubHome(), 'gates-'));
  const started = ok(
    await hub.call('start_process', {
      command: process.execPath,
      args: [fixture('process-gated-flood.mjs'), gates, String(writes)],
      wait_for: { pattern: 'waiting for go' },
    }),
  );
  const id = (started.process as { id: string }).id;
  return { id, uri: `hub://processes/${id}/log`, open: (gate: string) => writeFileSync(join(gates, gate), '') };
};

describe("hub's own resources", () => {
  test('resources/list and templates name them; hub://processes is what list_processes returns', async () => {
    const home = await makeHubHome();
    const hub = await spawnHub(home);
    try {
      const started = ok(
        await hub.call('start_process', {
          command: 'echo listed; sleep 30',
          name: 'lister',
          wait_for: { pattern: 'listed' },
        }),
      );
      const id = (started.process as { id: string }).id;
      const { resources } = await hub.client.listResources();
      expect(resources.map(resource => resource.uri)).toEqual(
        expect.arrayContaining(['hub://processes', 'hub://servers', `hub://processes/${id}/log`]),
      );
      expect(resources.find(resource => resource.uri === `hub://processes/${id}/log`)).toMatchObject({
        mimeType: 'text/plain',
        title: expect.stringContaining('lister') as string,
      });
      const { resourceTemplates } = await hub.client.listResourceTemplates();
      expect(resourceTemplates).toEqual([
        expect.objectContaining({ uriTemplate: 'hub://processes/{id}/log', mimeType: 'text/plain' }),
      ]);

      const listed = ok(await hub.call('list_processes', {}));
      const read = await hub.client.readResource({ uri: 'hub://processes' });
      expect(read.contents[0]).toMatchObject({ uri: 'hub://processes', mimeType: 'application/json' });
      expect(JSON.parse(textIn(read))).toEqual(listed);
      expect(listed.total).toBe(1);
    } finally {
      await hub.close();
    }
  }, 60_000);

  test('a log reads as ANSI-stripped text with a cursor to follow; the tools link to it', async () => {
    const home = await makeHubHome();
    const hub = await spawnHub(home);
    try {
      // Listed first: the SDK client then checks each result's structuredContent against its outputSchema.
      await hub.client.listTools();
      const flood = await gatedFlood(hub, 3);
      const started = await hub.call('start_process', {
        command: "printf '\\033[31mred line\\033[0m\\nsecond\\n'; sleep 30",
        wait_for: { pattern: 'second' },
      });
      const id = (ok(started).process as { id: string }).id;
      const link = started.content.find(block => block.type === 'resource_link');
      expect(link).toMatchObject({ type: 'resource_link', uri: `hub://processes/${id}/log`, mimeType: 'text/plain' });

      const tail = await hub.client.readResource({ uri: link!.type === 'resource_link' ? link!.uri : '' });
      expect(textIn(tail)).toBe('red line\nsecond');
      expect(metaOf(tail)).toMatchObject({ id, status: 'running', truncated: false });

      // Follow mode: the cursor in the URI, as get_process_logs takes it.
      const since = metaOf(await hub.client.readResource({ uri: flood.uri })).next_uri;
      flood.open('go');
      expect(since).toMatch(new RegExp(`^hub://processes/${flood.id}/log\\?cursor=\\d+$`));
      let followed = '';
      let next = since;
      await vi.waitFor(
        async () => {
          const read = await hub.client.readResource({ uri: next });
          followed += textIn(read) ? `${textIn(read)}\n` : '';
          next = metaOf(read).next_uri;
          expect(followed).toContain('flood done');
        },
        { timeout: 15_000, interval: 100 },
      );
      expect(followed).not.toContain('waiting for go');
      expect(followed).toMatch(/^flood 0 \.+\nflood 1 \.+\nflood 2 \.+\nflood done\n$/);

      const logs = await hub.call('get_process_logs', { id, lines: 1 });
      expect(ok(logs)).toMatchObject({ id, lines: 1 });
      expect(logs.content.filter(block => block.type === 'resource_link')).toEqual([
        expect.objectContaining({ uri: `hub://processes/${id}/log` }),
      ]);
      const lines = await hub.client.readResource({ uri: `hub://processes/${id}/log?lines=1` });
      expect(textIn(lines)).toBe('second');
    } finally {
      await hub.close();
    }
  }, 60_000);

  test('a subscription gets a few coalesced updates for a flood, one when the process ends, then none', async () => {
    const home = await makeHubHome();
    const hub = await spawnHub(home);
    const counts = updates(hub);
    try {
      const writes = 600;
      const flood = await gatedFlood(hub, writes);
      await hub.client.subscribeResource({ uri: flood.uri });
      const began = Date.now();
      flood.open('go');
      await vi.waitFor(
        async () => expect(textIn(await hub.client.readResource({ uri: flood.uri }))).toContain('flood done'),
        { timeout: 20_000, interval: 100 },
      );
      const floodMs = Date.now() - began;
      // The trailing update of the flood (coalesced, a quarter second later at most).
      await vi.waitFor(() => expect(counts.get(flood.uri)).toBeGreaterThan(0), { timeout: 5_000 });
      const duringFlood = counts.get(flood.uri) ?? 0;
      console.info(`log subscription: ${duringFlood} updates for ${writes} writes in ${floodMs} ms`);
      // Coalesced: at most one per 250 ms window (plus the edges), never one per write.
      expect(duringFlood).toBeLessThanOrEqual(Math.ceil(floodMs / 250) + 3);
      expect(duringFlood).toBeLessThan(writes / 10);

      flood.open('end');
      // It ends silently (the log does not change): an update arriving after its recorded end is the end's.
      let endedAtMs = Number.POSITIVE_INFINITY;
      await vi.waitFor(
        async () => {
          const { processes } = ok(await hub.call('list_processes', {})) as {
            processes: { id: string; endedAt?: string }[];
          };
          endedAtMs = Date.parse(processes.find(entry => entry.id === flood.id)?.endedAt ?? '');
          expect(endedAtMs).toBeGreaterThan(0);
        },
        { timeout: 10_000, interval: 100 },
      );
      await vi.waitFor(() => expect(counts.lastAtMs).toBeGreaterThanOrEqual(endedAtMs), { timeout: 10_000 });
      const ended = await hub.client.readResource({ uri: flood.uri });
      expect(metaOf(ended).status).toBe('exited');
      expect(textIn(ended)).toMatch(/flood done$/);
      // Nothing changes after the end: the watch stopped.
      const atEnd = counts.get(flood.uri) ?? 0;
      // Its trailing update (counted before it came, or not) and the end's.
      expect(atEnd - duringFlood).toBeLessThanOrEqual(3);
      // Three windows of another process's output pass, told on the same stream.
      const witness = await ticking(hub);
      await vi.waitFor(() => expect(counts.get(witness)).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
      expect(counts.get(flood.uri)).toBe(atEnd);
    } finally {
      await hub.close();
    }
  }, 90_000);

  test('unsubscribe stops the updates of a process that keeps printing', async () => {
    const home = await makeHubHome();
    const hub = await spawnHub(home);
    const counts = updates(hub);
    try {
      const [uri, witness] = [await ticking(hub), await ticking(hub)];
      await vi.waitFor(() => expect(counts.get(uri)).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
      await hub.client.unsubscribeResource({ uri });
      // The response follows any update sent before it on the same stream: this count is final.
      const after = counts.get(uri);
      // Both keep printing: three more windows of the other's updates are three this one had.
      const witnessed = counts.get(witness) ?? 0;
      await vi.waitFor(() => expect(counts.get(witness)).toBeGreaterThanOrEqual(witnessed + 3), { timeout: 10_000 });
      expect(counts.get(uri)).toBe(after);
      expect(textIn(await hub.client.readResource({ uri }))).toContain('tick');
    } finally {
      await hub.close();
    }
  }, 60_000);

  test('an unknown process or a malformed hub:// URI is -32602 naming the URI and the fix', async () => {
    const home = await makeHubHome();
    const hub = await spawnHub(home);
    try {
      const unknown = await rpcError(hub.client.readResource({ uri: 'hub://processes/deadbeef/log' }));
      expect(unknown.code).toBe(-32602);
      expect(unknown.message).toContain('"hub://processes/deadbeef/log"');
      expect(unknown.message).toContain('list_processes');
      const subscribed = await rpcError(hub.client.subscribeResource({ uri: 'hub://processes/deadbeef/log' }));
      expect(subscribed.code).toBe(-32602);

      for (const [uri, fix] of [
        ['hub://processes/abc/logs', 'hub://processes/{id}/log'],
        ['hub://process', 'hub://processes'],
        ['hub://processes/abc/log?cursor=-1', '"cursor" must be a whole number'],
        ['hub://processes/abc/log?lines=5000', '"lines" must be a whole number from 1 to 2000'],
        ['hub://processes/abc/log?follow=1', 'only "cursor"'],
        ['hub://processes/..%2Fx/log', 'not a process id or name'],
        ['hub://servers?x=1', 'takes no query'],
      ]) {
        const error = await rpcError(hub.client.readResource({ uri: uri! }));
        expect(error.code, uri).toBe(-32602);
        expect(error.message, uri).toContain(JSON.stringify(uri));
        expect(error.message, uri).toContain(fix);
      }
      const notLog = await rpcError(hub.client.subscribeResource({ uri: 'hub://processes' }));
      expect(notLog.message).toContain('only for process logs');
    } finally {
      await hub.close();
    }
  }, 60_000);

  test('hub://servers is what registry_list shows; listing and reading it start no server', async () => {
    const home = await makeHubHome();
    const spawns = sharedFile(home, 'echo-spawns.log');
    const hub = await spawnHub(home);
    try {
      const installed = ok(
        await hub.call('registry_install', {
          command: process.execPath,
          args: [fixture('echo-server.mjs')],
          name: 'echo',
          env: { ECHO_SPAWN_LOG: spawns },
        }),
      );
      expect(installed).toMatchObject({ name: 'echo', state: 'ready' });
      ok(await hub.call('echo_echo', { text: 'hi' }));
      const listed = ok(await hub.call('registry_list', {}));
      const read = await hub.client.readResource({ uri: 'hub://servers' });
      const servers = JSON.parse(textIn(read)) as { servers: Record<string, unknown>[] };
      expect(servers).toEqual(listed);
      expect(servers.servers).toEqual([
        expect.objectContaining({
          name: 'echo',
          mode: 'command',
          kind: 'command',
          state: 'ready',
          calls: 1,
          errors: 0,
        }),
      ]);
      expect(servers.servers[0]!.tools).toContain('echo_echo');
    } finally {
      await hub.close();
    }
    // A restart of hub: the shared hub too, so its child stops (it would stay up for other sessions).
    await stopSharedHubIn(home);
    const next = await spawnHub(home);
    try {
      await next.client.listResources();
      const read = JSON.parse(textIn(await next.client.readResource({ uri: 'hub://servers' }))) as {
        servers: Record<string, unknown>[];
      };
      expect(read.servers).toEqual([expect.objectContaining({ name: 'echo', state: 'stopped' })]);
      expect(readFileSync(spawns, 'utf8').trim().split('\n')).toHaveLength(1);
    } finally {
      await next.close();
    }
  }, 60_000);

  test('a process started or removed, by this hub or another on the same HUB_HOME, sends resources/list_changed', async () => {
    const home = await makeHubHome();
    const hub = await spawnHub(home);
    const other = await spawnHub(home);
    try {
      let changes = 0;
      hub.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
        changes += 1;
      });
      // A client that has not listed resources is not told: it has nothing to refresh.
      ok(await hub.call('start_process', { command: 'echo before; sleep 30', wait_for: { pattern: 'before' } }));
      const before = await hub.client.listResources();
      expect(changes).toBe(0);

      const mine = ok(
        await hub.call('start_process', { command: 'echo mine; sleep 30', wait_for: { pattern: 'mine' } }),
      );
      await vi.waitFor(() => expect(changes).toBe(1), { timeout: 10_000 });
      const theirs = ok(
        await other.call('start_process', { command: 'echo theirs; sleep 30', wait_for: { pattern: 'theirs' } }),
      );
      await vi.waitFor(() => expect(changes).toBe(2), { timeout: 10_000 });
      const after = await hub.client.listResources();
      const uris = (id: unknown) => `hub://processes/${(id as { id: string }).id}/log`;
      expect(after.resources.map(resource => resource.uri)).toEqual(
        expect.arrayContaining([uris(mine.process), uris(theirs.process)]),
      );
      expect(after.resources).toHaveLength(before.resources.length + 2);

      ok(await other.call('kill_process', { id: (theirs.process as { id: string }).id, remove: true }));
      await vi.waitFor(() => expect(changes).toBe(3), { timeout: 10_000 });
    } finally {
      await Promise.all([hub.close(), other.close()]);
    }
  }, 60_000);
});
