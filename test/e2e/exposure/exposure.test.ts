// Issue 14, items 1, 2 and 7: the built hub lists what each client can take. Fifteen real
// servers' cached tools/list (test/fixtures/tool-lists/, never started: their command would leave
// a marker file) plus the echo fixture server, which is real and answers calls.
import { existsSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test, vi } from 'vitest';
import { echoTools, seededHome, started } from '../../helpers/exposure-home.js';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, textOf, type HubSession } from '../../helpers/hub.js';
import { childrenOf } from '../../helpers/install.js';
import { noteHubHome, sharedHubPid } from '../../helpers/shared-hub.js';

// hub's own tools without tools_search (registry_configure and the pty tools included).
const OWN = 14;

const names = (tools: Tool[]): string[] => tools.map(tool => tool.name);

async function listed(home: string, clientName: string, env: Record<string, string> = {}): Promise<Tool[]> {
  const hub = await spawnHub(home, { clientName, env });
  try {
    const { tools } = await hub.client.listTools();
    // Nothing was started to list them.
    expect(childrenOf(hub.pid!)).toEqual([]);
    return tools;
  } finally {
    await hub.close();
  }
}

const structured = (result: CallToolResult) => result.structuredContent as Record<string, unknown>;

describe('exposure', () => {
  test('auto lists by client: everything to Claude Code, a budget with tools_search to Cursor, VS Code and unknown clients', async () => {
    const { home, proxied } = await seededHome();
    const claude = await listed(home, 'claude-code');
    expect(claude).toHaveLength(OWN + proxied);
    expect(names(claude)).not.toContain('tools_search');

    for (const [client, budget] of [
      ['cursor-vscode', 40],
      ['Visual Studio Code', 128],
      ['some-new-agent', 40],
    ] as const) {
      const tools = await listed(home, client);
      expect(tools.length, client).toBeLessThanOrEqual(budget);
      expect(names(tools), client).toContain('tools_search');
      expect(names(tools), client).toEqual(
        expect.arrayContaining(['registry_search', 'registry_call', 'start_process']),
      );
      // Filled tool by tool: no place left empty while tools are left out (issue 27, item 1).
      expect(tools.length, client).toBe(budget);
    }
    // search mode by the client entry's env (a session of the same shared hub): hub's own tools
    // and tools_search only.
    const search = await listed(home, 'claude-code', { HUB_EXPOSURE: 'search' });
    expect(names(search).sort()).toEqual([...names(claude).slice(0, OWN), 'tools_search'].sort());
    expect(started(home)).toEqual([]);
  });

  test("on the shared hub each session has its own entry's mode and names: the entry that started it sets nothing for the others", async () => {
    const { home, proxied } = await seededHome();
    // The first entry starts the shared hub with HUB_EXPOSURE=all and dotted names in its env.
    const first = await spawnHub(home, {
      clientName: 'cursor-vscode',
      env: { HUB_EXPOSURE: 'all', HUB_TOOL_NAMES: 'dotted' },
    });
    try {
      const everything = (await first.client.listTools()).tools;
      expect(everything).toHaveLength(OWN + proxied);
      expect(names(everything)).toContain('registry.search');
      // A call goes to the shared hub (the cold-start lane may have answered the listing).
      expect((await first.call('registry.list')).isError).toBeFalsy();
      const hub = sharedHubPid(home);
      expect(hub).toBeDefined();
      // A second Cursor session without either variable: auto's budget and underscores.
      const second = await spawnHub(home, { clientName: 'cursor-vscode' });
      try {
        expect(sharedHubPid(home)).toBe(hub);
        const tools = (await second.client.listTools()).tools;
        expect(tools.length).toBeLessThanOrEqual(40);
        expect(names(tools)).toContain('tools_search');
        expect(names(tools)).not.toContain('registry.search');
        // Listing in either mode started no child in the shared hub.
        expect(childrenOf(hub!)).toEqual([]);
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
    }
    expect(started(home)).toEqual([]);
  });

  test('a tools_search result is callable by its name and through registry_call; the most used is listed next time', async () => {
    const { home } = await seededHome();
    let hub: HubSession = await spawnHub(home, { clientName: 'cursor-vscode' });
    try {
      expect(names((await hub.client.listTools()).tools)).not.toContain('echo_echo');
      const found = await hub.call('tools_search', { query: 'echo text', limit: 3 });
      const results = structured(found).results as {
        name: string;
        server: string;
        tool: string;
        input_schema: unknown;
      }[];
      expect(results[0]).toMatchObject({ name: 'echo_echo', server: 'echo', tool: 'echo' });
      expect(results[0]!.input_schema).toEqual(echoTools[0]!.inputSchema);
      expect(structured(found).hidden).toBeGreaterThan(100);
      // Search starts nothing; the call does (echo is real).
      expect(started(home)).toEqual([]);
      expect(textOf(await hub.call('echo_echo', { text: 'by name' }))).toBe('by name');
      const viaRegistry = await hub.call('registry_call', {
        server: 'echo',
        tool: 'echo',
        arguments: { text: 'via registry' },
      });
      expect(textOf(viaRegistry)).toBe('via registry');
      // server narrows; an unknown one is a clear error naming the field.
      const narrowed = structured(await hub.call('tools_search', { query: 'read a file', server: 'filesystem' }));
      expect((narrowed.results as { server: string }[]).every(result => result.server === 'filesystem')).toBe(true);
      const unknown = await hub.call('tools_search', { query: 'x', server: 'nope' });
      expect(unknown.isError).toBe(true);
      expect(textOf(unknown)).toMatch(/Field "server": "nope" is not an installed server/);
    } finally {
      await hub.close();
    }
    // The calls were counted at close (tool-usage.json): the next Cursor session lists echo_echo.
    expect(existsSync(join(home, 'tool-usage.json'))).toBe(true);
    hub = await spawnHub(home, { clientName: 'cursor-vscode' });
    try {
      const tools = names((await hub.client.listTools()).tools);
      expect(tools).toContain('echo_echo');
      expect(tools.length).toBeLessThanOrEqual(40);
    } finally {
      await hub.close();
    }
    expect(started(home)).toEqual([]);
  });
});

/** hub started in `cwd`, a client that may answer roots/list with `roots`. */
async function spawnIn(
  home: string,
  cwd: string,
  clientName: string,
  roots?: string[],
  env: Record<string, string> = {},
) {
  // The default, a session of home's shared hub, which takes this entry's cwd and env.
  noteHubHome(home);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(process.cwd(), 'dist/server.js')],
    cwd,
    env: {
      HUB_HOME: home,
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      ...env,
    },
    stderr: 'pipe',
  });
  const client = new Client(
    { name: clientName, version: '1.0.0' },
    { capabilities: roots ? { roots: { listChanged: true } } : {} },
  );
  if (roots) {
    const { ListRootsRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: roots.map(folder => ({ uri: `file://${folder}` })),
    }));
  }
  let changes = 0;
  const { ToolListChangedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes += 1;
  });
  await client.connect(transport);
  return { client, pid: transport.pid!, changes: () => changes, close: () => client.close() };
}

describe('per-project sets (.hub.json)', () => {
  test("hub's working folder: the project's servers only; an edit of the file is announced and applied", async () => {
    const { home } = await seededHome();
    const project = await makeHubHome();
    await writeFile(join(project, '.git'), '');
    await writeFile(join(project, '.hub.json'), JSON.stringify({ servers: ['echo', 'memory'] }));
    const hub = await spawnIn(home, project, 'claude-code');
    try {
      const first = names((await hub.client.listTools()).tools);
      expect(first.filter(name => name.startsWith('memory_'))).toHaveLength(9);
      expect(first.filter(name => name.startsWith('github_'))).toEqual([]);
      expect(first).toHaveLength(OWN + 9 + echoTools.length);
      // The project asks for search: Claude Code now gets hub's tools and tools_search.
      await writeFile(join(project, '.hub.json'), JSON.stringify({ servers: ['echo', 'memory'], exposure: 'search' }));
      await vi.waitFor(() => expect(hub.changes()).toBeGreaterThan(0), { timeout: 10_000, interval: 50 });
      const second = (await hub.client.listTools()).tools;
      expect(names(second)).toContain('tools_search');
      expect(second).toHaveLength(OWN + 1);
      // tools_search names only the project's servers, and finds only their tools.
      const search = second.find(tool => tool.name === 'tools_search')!;
      expect(search.description).toMatch(/Installed: memory \(9 tools/);
      expect(search.description).not.toMatch(/github/);
      const found = await hub.client.callTool({ name: 'tools_search', arguments: { query: 'create a github issue' } });
      expect(
        (structured(found as CallToolResult).results as { server: string }[]).every(r =>
          ['echo', 'memory'].includes(r.server),
        ),
      ).toBe(true);
      expect(childrenOf(hub.pid)).toEqual([]);
    } finally {
      await hub.close();
    }
  });

  test("the client's roots decide over hub's working folder; an invalid file names the field and is ignored", async () => {
    const { home, proxied } = await seededHome();
    const project = await makeHubHome();
    const elsewhere = await makeHubHome();
    await writeFile(join(project, '.hub.json'), JSON.stringify({ servers: ['github'] }));
    await writeFile(join(elsewhere, '.git'), '');
    const hub = await spawnIn(home, elsewhere, 'claude-code', [project]);
    try {
      // Roots are asked for after initialize: the listing follows with list_changed.
      await vi.waitFor(async () => expect(names((await hub.client.listTools()).tools)).toHaveLength(OWN + 26), {
        timeout: 10_000,
        interval: 100,
      });
      await writeFile(join(project, '.hub.json'), JSON.stringify({ servers: 'github' }));
      await vi.waitFor(async () => expect((await hub.client.listTools()).tools).toHaveLength(OWN + proxied), {
        timeout: 10_000,
        interval: 100,
      });
    } finally {
      await hub.close();
    }
    const log = readdirSync(join(home, 'logs')).includes('hub.log')
      ? (await import('node:fs')).readFileSync(join(home, 'logs', 'hub.log'), 'utf8')
      : '';
    expect(log).toMatch(/field \\"servers\\": Invalid input: expected array/);
  });
});

test('an edit of config.json switches a running session (list_changed), HUB_EXPOSURE in the entry still wins', async () => {
  const { home, proxied } = await seededHome();
  const hub = await spawnIn(home, home, 'claude-code');
  const pinned = await spawnIn(home, home, 'claude-code', undefined, { HUB_EXPOSURE: 'all' });
  try {
    expect((await hub.client.listTools()).tools).toHaveLength(OWN + proxied);
    await writeFile(join(home, 'config.json'), JSON.stringify({ exposure: { mode: 'search', pin: ['postgres'] } }));
    await vi.waitFor(() => expect(hub.changes()).toBeGreaterThan(0), { timeout: 10_000, interval: 50 });
    expect(names((await hub.client.listTools()).tools).sort()).toEqual(
      expect.arrayContaining(['tools_search', 'postgres_query', 'registry_search']),
    );
    expect((await hub.client.listTools()).tools).toHaveLength(OWN + 2);
    expect((await pinned.client.listTools()).tools).toHaveLength(OWN + proxied);
  } finally {
    await Promise.all([hub.close(), pinned.close()]);
  }
});
