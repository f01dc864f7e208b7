// Issue 10.14 (CLI part): `hub servers` in a terminal shows what the hubs running a server
// see (state, calls), not its own empty view; a dead hub's state reads as stopped; a server
// whose required env is missing says so.
import { execFile, spawnSync } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test, vi } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { SERVER_JS, spawnHub, startHubInProcess, textOf } from '../../helpers/hub.js';
import { commandRecord, ECHO, putRecords } from '../../proxy/harness.js';

const run = promisify(execFile);
type Line = { name: string; state: string; calls: number; errors: number; missingEnv: string[] };
const servers = async (home: string): Promise<Line[]> =>
  JSON.parse(
    (await run(process.execPath, [SERVER_JS, 'servers', '--json'], { env: { ...process.env, HUB_HOME: home } })).stdout,
  ) as Line[];

test('hub-mcp servers shows the state and calls of the hub that runs the server, then stopped when it closes', async () => {
  const home = await makeHubHome();
  const tools = [{ name: 'echo', inputSchema: { type: 'object' as const, properties: { text: { type: 'string' } } } }];
  await putRecords(openStore(loadConfig({ HUB_HOME: home }).paths), commandRecord('echo', [ECHO], { tools }));
  const hub = await startHubInProcess(home);
  try {
    const tool = (await hub.client.listTools()).tools.find(entry => /^echo[._]echo$/.test(entry.name));
    expect(tool).toBeDefined();
    expect(textOf(await hub.call(tool!.name, { text: 'one' }))).toBe('one');
    expect(textOf(await hub.call(tool!.name, { text: 'two' }))).toBe('two');
    // State is published at once; calls within a second (polled, not timed).
    await vi.waitFor(
      async () => expect((await servers(home))[0]).toMatchObject({ name: 'echo', state: 'ready', calls: 2, errors: 0 }),
      { timeout: 15_000, interval: 300 },
    );
  } finally {
    await hub.close();
  }
  expect((await servers(home))[0]).toMatchObject({ name: 'echo', state: 'stopped' });
});

test("a dead hub's published state reads as stopped, and its file is cleared", async () => {
  const home = await makeHubHome();
  await putRecords(openStore(loadConfig({ HUB_HOME: home }).paths), commandRecord('echo', [ECHO]));
  const dead = spawnSync(process.execPath, ['-e', '']).pid!;
  const dir = join(home, 'state', 'echo');
  await mkdir(dir, { recursive: true });
  const snapshot = {
    pid: dead,
    state: 'ready',
    calls: 7,
    errors: 0,
    meanMs: 1,
    p95Ms: 1,
    restarts: 0,
    updatedAt: new Date().toISOString(),
  };
  await writeFile(join(dir, `${dead}.json`), JSON.stringify(snapshot));
  expect((await servers(home))[0]).toMatchObject({ state: 'stopped', calls: 0 });
  expect(await readdir(dir)).toEqual([]);
});

test('a server whose required env is missing is shown as needing it, with the command to set it', async () => {
  const home = await makeHubHome();
  await putRecords(
    openStore(loadConfig({ HUB_HOME: home }).paths),
    commandRecord('github', ['/nowhere/index.js'], {
      mode: 'npm',
      package: '@modelcontextprotocol/server-github',
      version: '1.0.0',
    }),
  );
  expect((await servers(home))[0]).toMatchObject({ name: 'github', missingEnv: ['GITHUB_PERSONAL_ACCESS_TOKEN'] });
  const table = (await run(process.execPath, [SERVER_JS, 'servers'], { env: { ...process.env, HUB_HOME: home } }))
    .stdout;
  expect(table).toMatch(/^github\s+@modelcontextprotocol\/server-github@1\.0\.0\s+needs env\s/m);
  expect(table).toContain(
    'github: missing GITHUB_PERSONAL_ACCESS_TOKEN; set it with hub-mcp install @modelcontextprotocol/server-github --name github --env GITHUB_PERSONAL_ACCESS_TOKEN=...',
  );
});

test('registry.list in another session shows the state and calls of the hub that runs the server', async () => {
  const home = await makeHubHome();
  const tools = [{ name: 'echo', inputSchema: { type: 'object' as const, properties: { text: { type: 'string' } } } }];
  await putRecords(openStore(loadConfig({ HUB_HOME: home }).paths), commandRecord('echo', [ECHO], { tools }));
  const runner = await spawnHub(home);
  const viewer = await startHubInProcess(home);
  try {
    expect(textOf(await runner.call('echo_echo', { text: 'one' }))).toBe('one');
    expect(textOf(await runner.call('echo_echo', { text: 'two' }))).toBe('two');
    await vi.waitFor(
      async () =>
        expect((await viewer.call('registry_list')).structuredContent).toMatchObject({
          servers: [{ name: 'echo', state: 'ready', calls: 2, errors: 0 }],
        }),
      { timeout: 15_000, interval: 300 },
    );
    expect((await viewer.call('registry_list', { server: 'echo' })).structuredContent).toMatchObject({
      servers: [{ name: 'echo', state: 'ready', calls: 2 }],
    });
  } finally {
    await viewer.close();
    await runner.close();
  }
});
