// Issue 27 item 10: every client session is one entry process (server.ts → cold-start/ →
// hub-link/entry.ts) between the client and the shared hub. It is the cold-start lane and a relay
// of lines: it loads neither zod nor the SDK (zod alone was ~15 MB of each entry), also with a
// config.json that sets sharedHub (the entry used to load the full config, and zod, to read it).
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, test } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { fixture, SERVER_JS } from '../../helpers/hub.js';
import { noteHubHome, sharedHubPid } from '../../helpers/shared-hub.js';
import { ECHO, commandRecord, putRecords } from '../../proxy/harness.js';

const TRACE_HOOK = fixture('module-trace/register.mjs');

test('the entry loads no zod and no SDK module: cold start, hand-off, hub and proxied calls', async () => {
  const home = await makeHubHome();
  noteHubHome(home);
  await writeFile(join(home, 'config.json'), JSON.stringify({ sharedHub: { idleMs: 600_000 }, logLevel: 'info' }));
  await putRecords(
    openStore(loadConfig({ HUB_HOME: home }).paths),
    commandRecord('echo', [ECHO], {
      tools: [{ name: 'echo', description: 'Echoes text.', inputSchema: { type: 'object' } }],
    }),
  );
  const trace = join(home, 'entry-modules.txt');
  const transport = new StdioClientTransport({
    command: process.execPath,
    // Only the entry is traced: the shared hub it starts gets no --import.
    args: ['--import', TRACE_HOOK, SERVER_JS],
    env: {
      HUB_HOME: home,
      HUB_TEST_MODULE_TRACE: trace,
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
    },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', () => undefined);
  const client = new Client({ name: 'claude-code', version: '2.1.197' });
  await client.connect(transport);
  try {
    expect((await client.listTools()).tools.map(tool => tool.name)).toContain('echo_echo');
    await client.listPrompts();
    await client.listResources();
    const echoed = (await client.callTool({
      name: 'echo_echo',
      arguments: { text: 'through the entry' },
    })) as CallToolResult;
    expect(echoed.content).toEqual([{ type: 'text', text: 'through the entry' }]);
    const listed = (await client.callTool({ name: 'list_processes', arguments: {} })) as CallToolResult;
    expect(listed.isError).toBeFalsy();
    // Served by the shared hub, not by a hub in the entry.
    expect(sharedHubPid(home)).toBeGreaterThan(0);
  } finally {
    await client.close();
  }
  const modules = readFileSync(trace, 'utf8').split('\n').filter(Boolean);
  // The entry did run its lane and its relay.
  expect(modules.some(url => url.endsWith('/dist/cold-start/bootstrap.js'))).toBe(true);
  expect(modules.some(url => url.endsWith('/dist/hub-link/entry.js'))).toBe(true);
  expect(modules.some(url => url.endsWith('/dist/hub.js'))).toBe(false);
  expect(modules.filter(url => /\/node_modules\/(zod|@modelcontextprotocol\/sdk)\//.test(url))).toEqual([]);
  // Nothing from node_modules at all: the lane and the relay are hub's own code and node:*.
  expect(modules.filter(url => url.includes('/node_modules/'))).toEqual([]);
});
