// registry.install (command mode), list, call and uninstall through the in-process hub and a
// real Client, with the real server-everything (devDependency) as the installed server.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test, vi } from 'vitest';
import { makeHubHome } from '../helpers/home.js';
import { startHubInProcess, textOf, type HubSession } from '../helpers/hub.js';

const EVERYTHING = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);

async function withEverything(
  fn: (hub: HubSession, home: string, changes: () => number) => Promise<void>,
): Promise<void> {
  const home = await makeHubHome();
  const hub = await startHubInProcess(home);
  let changes = 0;
  hub.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes += 1;
  });
  try {
    const result = await hub.call('registry.install', {
      command: process.execPath,
      args: [EVERYTHING],
      name: 'everything',
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    await fn(hub, home, () => changes);
  } finally {
    await hub.close();
  }
}

describe('registry tools with server-everything in command mode', () => {
  test('install registers the command, starts it and exposes everything.echo with list_changed', async () => {
    await withEverything(async (hub, home, changes) => {
      await vi.waitFor(() => expect(changes()).toBeGreaterThan(0), { timeout: 10_000, interval: 50 });
      const names = (await hub.client.listTools()).tools.map(tool => tool.name);
      expect(names.slice(0, 5)).toEqual([
        'registry_search',
        'registry_install',
        'registry_list',
        'registry_uninstall',
        'registry_call',
      ]);
      expect(names).toContain('everything_echo');
      expect(textOf(await hub.call('everything.echo', { message: 'direct' }))).toBe('Echo: direct');
      expect(existsSync(join(home, 'servers', 'everything'))).toBe(false);
    });
  });

  test('registry.call reaches a proxied tool and returns its result as the child shaped it, with and without structuredContent', async () => {
    await withEverything(async hub => {
      await hub.client.listTools(); // the client caches output schemas: registry.call lists none
      const echoed = await hub.call('registry.call', {
        server: 'everything',
        tool: 'echo',
        arguments: { message: 'via call' },
      });
      expect(echoed.isError).toBeFalsy();
      expect(textOf(echoed)).toBe('Echo: via call');
      expect(echoed.structuredContent).toBeUndefined();
      const structured = await hub.call('registry.call', {
        server: 'everything',
        tool: 'get-structured-content',
        arguments: { location: 'Chicago' },
      });
      expect(structured.isError).toBeFalsy();
      expect(structured.structuredContent).toHaveProperty('temperature');
      const bad = await hub.call('registry.call', { server: 'everything', tool: 'echo', arguments: {} });
      expect(bad.isError).toBe(true);
    });
  });

  test('registry.list gives servers with metrics, and {server} gives tools with schemas', async () => {
    await withEverything(async hub => {
      await hub.call('everything.echo', { message: 'x' });
      const all = await hub.call('registry.list');
      const [summary] = (all.structuredContent as { servers: Array<Record<string, unknown>> }).servers;
      expect(summary).toMatchObject({ name: 'everything', mode: 'command', state: 'ready' });
      expect(summary?.tools).toContain('everything_echo');
      expect(summary?.calls).toBeGreaterThanOrEqual(1);

      const one = await hub.call('registry.list', { server: 'everything' });
      const tools = (
        one.structuredContent as {
          tools: Array<{
            tool: string;
            exposedName?: string;
            description?: string;
            inputSchema: { properties?: Record<string, unknown> };
          }>;
        }
      ).tools;
      const echo = tools.find(tool => tool.tool === 'echo');
      expect(echo).toMatchObject({ exposedName: 'everything_echo' });
      expect(echo?.description).toBeTruthy();
      expect(echo?.inputSchema.properties).toHaveProperty('message');
      expect(textOf(one)).toContain('registry_call');
    });
  });

  test('uninstall removes the tools, sends list_changed and keeps the log', async () => {
    await withEverything(async (hub, home, changes) => {
      await vi.waitFor(() => expect(changes()).toBeGreaterThan(0), { timeout: 10_000, interval: 50 });
      const before = changes();
      const removed = await hub.call('registry.uninstall', { name: 'everything' });
      expect(removed.isError, textOf(removed)).toBeFalsy();
      expect(removed.structuredContent).toMatchObject({
        name: 'everything',
        logFile: join(home, 'logs', 'servers', 'everything.log'),
      });
      expect((removed.structuredContent as { removedTools: string[] }).removedTools).toContain('everything_echo');
      await vi.waitFor(() => expect(changes()).toBeGreaterThan(before), { timeout: 10_000, interval: 50 });
      expect(
        (await hub.client.listTools()).tools.map(tool => tool.name).filter(name => name.startsWith('everything_')),
      ).toEqual([]);
      expect(textOf(await hub.call('registry.list'))).toMatch(/Nothing installed yet/);
    });
  });
});

describe('registry tools: errors', () => {
  test('unknown servers are NOT_FOUND naming them, and launchers need a name', async () => {
    const home = await makeHubHome();
    const hub = await startHubInProcess(home);
    try {
      expect(textOf(await hub.call('registry.list', { server: 'nope' }))).toMatch(
        /^NOT_FOUND: No server named "nope" is installed; call registry_list/,
      );
      expect(textOf(await hub.call('registry.uninstall', { name: 'nope' }))).toMatch(
        /^NOT_FOUND: No server named "nope"/,
      );
      expect((await hub.call('registry.call', { server: 'nope', tool: 'x' })).isError).toBe(true);
      expect(textOf(await hub.call('registry.install', { command: process.execPath, args: [EVERYTHING] }))).toMatch(
        /^INVALID_INPUT: Field "name" is required when "command" is a launcher/,
      );
      expect(textOf(await hub.call('registry.install', { command: 'relative/server.js', name: 'x' }))).toMatch(
        /^INVALID_INPUT: Field "command" "relative\/server\.js" must be a program name found on PATH or an absolute path/,
      );
      expect(
        textOf(await hub.call('registry.install', { command: process.execPath, name: 'x', env: { 'A-B': '1' } })),
      ).toMatch(/^INVALID_INPUT: Field "env" has invalid variable names \("A-B"\)/);
      expect(textOf(await hub.call('registry.install', { package: 'x', bogus: 1 }))).toMatch(
        /^INVALID_INPUT: .*unknown field "bogus"/,
      );
    } finally {
      await hub.close();
    }
  });
});

describe('registry tools: names and start failures', () => {
  test('every client, whatever its name, gets underscore names in results and texts too', async () => {
    const home = await makeHubHome();
    // Mastra reports the user's config key as its client name.
    const hub = await startHubInProcess(home, { clientName: 'my-tools' });
    try {
      const installed = await hub.call('registry_install', {
        command: process.execPath,
        args: [EVERYTHING],
        name: 'everything',
      });
      expect((installed.structuredContent as { tools: string[] }).tools).toContain('everything_echo');
      const next = (installed.structuredContent as { next: string }).next;
      expect(next).toMatch(/everything_\w+.*registry_list \{ server: "everything" \}.*registry_call/);
      expect(`${textOf(installed)}\n${next}`).not.toMatch(/registry\.|everything\.(?!log)/);
      const one = await hub.call('registry_list', { server: 'everything' });
      const tools = (one.structuredContent as { tools: Array<{ tool: string; exposedName?: string }> }).tools;
      expect(tools.find(tool => tool.tool === 'echo')?.exposedName).toBe('everything_echo');
      const names = (await hub.client.listTools()).tools.map(tool => tool.name);
      for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(
        textOf(await hub.call('registry_call', { server: 'everything', tool: 'echo', arguments: { message: 'u' } })),
      ).toBe('Echo: u');
    } finally {
      await hub.close();
    }
  });

  test('a server that dies at start is not installed, and the error says so with its log and what to do', async () => {
    const home = await makeHubHome();
    const hub = await startHubInProcess(home);
    try {
      const result = await hub.call('registry.install', {
        command: process.execPath,
        args: ['-e', 'console.error("boom at start"); process.exit(3)'],
        name: 'broken',
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /^CHILD_\w+: Server "broken" did not start as an MCP server, so it was not installed \(no record, no tools\); .*registry_install again\.[\s\S]*broken\.log[\s\S]*boom at start/,
      );
      const listed = (await hub.call('registry.list')).structuredContent as { servers: Array<{ name: string }> };
      expect(listed.servers).toEqual([]);
    } finally {
      await hub.close();
    }
  });
});
