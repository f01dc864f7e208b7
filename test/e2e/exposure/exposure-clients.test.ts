// Issue 27, items 1, 2 and 8: each client served as itself, by the names real clients send in
// initialize. The built hub (dist/server.js) as a session of its shared hub, the 15 real tool
// lists (cached, never started) and the echo fixture server, which is real and answers calls.
import { ToolListChangedNotificationSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { seededHome, started } from '../../helpers/exposure-home.js';
import { fixture, spawnHub, textOf, type HubSession } from '../../helpers/hub.js';

const ECHO = fixture('echo-server.mjs');
const names = (tools: Tool[]): string[] => tools.map(tool => tool.name);
const structured = (result: CallToolResult) => result.structuredContent as Record<string, unknown>;

interface Hit {
  call: string;
  listed: boolean;
  name: string;
  server: string;
  tool: string;
}

/** A session of `clientName` that lists again on list_changed, as the clients that do; events in order. */
async function clientSession(home: string, clientName: string, env: Record<string, string> = {}) {
  const hub = await spawnHub(home, { clientName, env });
  const events: string[] = [];
  let latest: Tool[] = [];
  hub.client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    events.push('list_changed');
    latest = (await hub.client.listTools()).tools;
  });
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await hub.call(name, args);
    events.push(`result ${name}`);
    return result;
  };
  return { hub, events, call, latest: () => latest };
}

async function closing<T>(hub: HubSession, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } finally {
    await hub.close();
  }
}

describe('budgets keep what a session uses (item 1)', () => {
  test('Gemini CLI: its own budget, filled tool by tool; an install lists the new server and keeps the called tool', async () => {
    const { home } = await seededHome();
    const { hub, events, call, latest } = await clientSession(home, 'gemini-cli-mcp-client');
    await closing(hub, async () => {
      const first = (await hub.client.listTools()).tools;
      // Gemini's budget (100), not an unknown client's 40, with no place left empty.
      expect(first).toHaveLength(100);
      expect(names(first)).toContain('tools_search');
      expect(names(first)).not.toContain('echo_echo');
      // A left-out tool is still callable by name; the session uses it from now on.
      expect(textOf(await call('echo_echo', { text: 'used' }))).toBe('used');

      const mark = events.length;
      const installed = await call('registry_install', { command: process.execPath, args: [ECHO], name: 'ev2' });
      expect(installed.isError, textOf(installed)).toBeFalsy();
      // The client was told before the result, and re-listed.
      expect(events.slice(mark).indexOf('list_changed')).toBe(0);
      const after = names((await hub.client.listTools()).tools);
      expect(after).toHaveLength(100);
      // The server this session installed is listed, and the tool it called still is.
      expect(after).toEqual(expect.arrayContaining(['echo_echo', 'ev2_echo', 'ev2_pid', 'ev2_add_tool']));
      expect(names(latest())).toEqual(expect.arrayContaining(['echo_echo', 'ev2_echo']));
      // The result says exactly how: by the names it now lists.
      const next = String(structured(installed).next);
      expect(next).toMatch(/^Its tools are in your tool list now: call them by name \(/);
      expect(next).toContain('ev2_echo');
      expect(textOf(await call('ev2_echo', { text: 'by name' }))).toBe('by name');

      // An uninstall keeps the called tool too.
      expect((await call('registry_uninstall', { name: 'ev2' })).isError).toBeFalsy();
      const gone = names((await hub.client.listTools()).tools);
      expect(gone).toContain('echo_echo');
      expect(gone.filter(name => name.startsWith('ev2_'))).toEqual([]);
      expect(gone).toHaveLength(100);
    });
    expect(started(home)).toEqual([]);
  });

  test('Cursor keeps the list it got at start: the install result names registry_call', async () => {
    const { home } = await seededHome();
    const { hub, call } = await clientSession(home, 'cursor');
    await closing(hub, async () => {
      expect((await hub.client.listTools()).tools).toHaveLength(40);
      const installed = await call('registry_install', { command: process.execPath, args: [ECHO], name: 'ev2' });
      expect(installed.isError, textOf(installed)).toBeFalsy();
      expect(String(structured(installed).next)).toMatch(
        /^Your client keeps the tool list it got at start, without these tools \(ev2_echo, .*registry_call \{ server: "ev2", tool, arguments \} calls them\.$/,
      );
      // hub lists them for the next list all the same (the server this session installed).
      const after = names((await hub.client.listTools()).tools);
      expect(after).toHaveLength(40);
      expect(after).toContain('ev2_echo');
    });
  });
});

describe('search results that work in the client (item 2)', () => {
  for (const [client, env] of [
    ['gemini-cli-mcp-client', {}],
    ['Visual Studio Code', {}],
    ['claude-code', { HUB_EXPOSURE: 'search' }],
  ] as const) {
    test(`${client}${'HUB_EXPOSURE' in env ? ' (search)' : ''} re-lists: the hits join its list, announced before the result, and are called by name`, async () => {
      const { home } = await seededHome();
      const { hub, events, call } = await clientSession(home, client, env);
      await closing(hub, async () => {
        const before = (await hub.client.listTools()).tools;
        const search = before.find(tool => tool.name === 'tools_search')!;
        expect(search.description).toMatch(/Results join your tool list: call them by name\./);
        expect(names(before)).not.toContain('echo_echo');
        const found = await call('tools_search', { query: 'echoes text', limit: 3 });
        const hits = structured(found).results as Hit[];
        expect(hits[0]).toMatchObject({ call: 'echo_echo', listed: true, server: 'echo', tool: 'echo' });
        expect(hits.every(hit => hit.listed && hit.call === hit.name)).toBe(true);
        expect(String(structured(found).next)).toMatch(/^They are in your tool list now: call one by its name/);
        expect(events.slice(-2)).toEqual(['list_changed', 'result tools_search']);
        const after = (await hub.client.listTools()).tools;
        expect(names(after)).toEqual(expect.arrayContaining(hits.map(hit => hit.name)));
        if (client !== 'claude-code') expect(after.length).toBe(before.length);
        expect(textOf(await call('echo_echo', { text: 'by name' }))).toBe('by name');
      });
      expect(started(home)).toEqual([]);
    });
  }

  for (const [client, env] of [
    ['cursor', {}],
    ['codex-mcp-client', { HUB_EXPOSURE: 'search' }],
  ] as const) {
    test(`${client} keeps its list: every hit leads with its registry_call form, and nothing is announced`, async () => {
      const { home } = await seededHome();
      const { hub, events, call } = await clientSession(home, client, env);
      await closing(hub, async () => {
        const before = (await hub.client.listTools()).tools;
        const search = before.find(tool => tool.name === 'tools_search')!;
        expect(search.description).toMatch(
          /Call a result with registry_call \{server, tool, arguments\}: your client keeps its first tool list\./,
        );
        const found = await call('tools_search', { query: 'echoes text', limit: 3 });
        const hits = structured(found).results as Hit[];
        expect(hits[0]).toMatchObject({
          call: 'registry_call {server: "echo", tool: "echo", arguments}',
          listed: false,
          server: 'echo',
        });
        for (const hit of hits)
          expect(hit.call).toBe(`registry_call {server: "${hit.server}", tool: "${hit.tool}", arguments}`);
        // The text leads every line with it too.
        const lines = textOf(found).split('\n');
        expect(lines.slice(0, hits.length).every(line => line.startsWith('registry_call {server: "'))).toBe(true);
        expect(events).toEqual(['result tools_search']);
        expect(names((await hub.client.listTools()).tools)).toEqual(names(before));
        const viaRegistry = await call('registry_call', { server: 'echo', tool: 'echo', arguments: { text: 'works' } });
        expect(textOf(viaRegistry)).toBe('works');
      });
    });
  }
});

test('know the clients (item 8): each real name gets its own budget', async () => {
  const { home, proxied } = await seededHome();
  for (const [client, count] of [
    ['gemini-cli-mcp-client', 100],
    ['claude-ai', 40],
    ['windsurf-client', 100],
    ['inspector-cli', 14 + proxied],
    ['mcp-use', 40],
  ] as const) {
    const hub = await spawnHub(home, { clientName: client });
    await closing(hub, async () => expect((await hub.client.listTools()).tools, client).toHaveLength(count));
  }
  expect(started(home)).toEqual([]);
});
