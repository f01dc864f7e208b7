// Issue 14, item 1: the exposure mode per client entry. `hub config cursor --exposure search`
// writes HUB_EXPOSURE into Cursor's hub entry, and a hub started from that entry, as Cursor
// starts it, lists hub's tools and tools_search only.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect, test } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeMachine, type Machine } from '../../clients/machine.js';
import { SERVER_JS } from '../../helpers/hub.js';
import { toolListRecords } from '../../helpers/tool-lists.js';
import { putRecords } from '../../proxy/harness.js';

const run = (machine: Machine, args: string[]) =>
  promisify(execFile)(process.execPath, [SERVER_JS, ...args], {
    cwd: machine.project,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: machine.home, HUB_HOME: machine.hubHome },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );

interface Entry {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

test('hub-mcp config cursor --exposure search writes HUB_EXPOSURE, and a hub started from the entry lists in search mode', async () => {
  const machine = await makeMachine();
  await putRecords(openStore(loadConfig({ HUB_HOME: machine.hubHome }).paths), ...toolListRecords());
  expect((await run(machine, ['config', 'cursor', '--write', '--exposure', 'search'])).code).toBe(0);
  const file = join(machine.home, '.cursor', 'mcp.json');
  const entry = (JSON.parse(await readFile(file, 'utf8')) as { mcpServers: { hub: Entry } }).mcpServers.hub;
  expect(entry.env).toEqual({ HUB_EXPOSURE: 'search' });

  const transport = new StdioClientTransport({
    command: entry.command,
    args: entry.args,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: machine.home, HUB_HOME: machine.hubHome, ...entry.env },
  });
  const client = new Client({ name: 'cursor-vscode', version: '1.0.0' });
  await client.connect(transport);
  try {
    const names = (await client.listTools()).tools.map(tool => tool.name);
    expect(names).toContain('tools_search');
    // hub's own 14 (registry_configure included) and tools_search.
    expect(names).toHaveLength(15);
  } finally {
    await client.close();
  }

  // Written again with another mode: the flag wins over the entry's value; other env stays.
  expect((await run(machine, ['config', 'cursor', '--write', '--exposure', 'all'])).code).toBe(0);
  const again = (JSON.parse(await readFile(file, 'utf8')) as { mcpServers: { hub: Entry } }).mcpServers.hub;
  expect(again.env).toEqual({ HUB_EXPOSURE: 'all' });
});

test('an unknown --exposure is refused, naming the flag and the modes', async () => {
  const machine = await makeMachine();
  const result = await run(machine, ['config', 'cursor', '--exposure', 'some']);
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/--exposure must be one of all, search, auto \(got "some"\)/);
});
