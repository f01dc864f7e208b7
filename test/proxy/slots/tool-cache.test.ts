// Cached tool lists live in HUB_HOME/tools/<name>.json, not db.json: a new hub lists them with no
// child started, an older db.json with tools inline still lists and is moved out, uninstall cleans up.
import { existsSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { silentLogger } from '../../../src/core/logger.js';
import { uninstallServer } from '../../../src/registry/installed/servers.js';
import type { CachedTool } from '../../../src/store/schema.js';
import { readToolCache } from '../../../src/store/tool-cache.js';
import { makeHubHome, makeScratchDir } from '../../helpers/home.js';
import { ECHO, commandRecord, putRecords, spawnCount, startHarness, until } from '../harness.js';

// Tools the size real servers list: a long description and a schema with several properties.
const bulkyTools = (count: number): CachedTool[] =>
  Array.from({ length: count }, (_, i) => ({
    name: `tool_${i}`,
    description: `Tool number ${i}. ${'It does a useful thing with the arguments given. '.repeat(8)}`,
    inputSchema: {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 6 }, (_, p) => [
          `field_${p}`,
          { type: 'string', description: `Field ${p} of tool ${i}.` },
        ]),
      ),
      required: ['field_0'],
    },
  }));

// Outside HUB_HOME, which a sandboxed child never reaches.
const scratch = (_home: string) => makeScratchDir();

describe('tool cache files', () => {
  test('with 20 servers db.json holds no tool schemas, and a new hub lists every tool from tools/ with no child started', async () => {
    const home = await makeHubHome();
    const spawns = join(await scratch(home), 'spawns');
    const first = await startHarness(home);
    const names = Array.from({ length: 20 }, (_, i) => `s${String(i + 1).padStart(2, '0')}`);
    await putRecords(
      first.store,
      ...names.map(name => commandRecord(name, [ECHO], { env: { ECHO_SPAWN_LOG: spawns }, tools: bulkyTools(12) })),
    );
    await first.close();

    const db = await readFile(first.config.paths.db, 'utf8');
    expect(db).not.toContain('inputSchema');
    expect(db.length).toBeLessThan(16_000);
    expect(statSync(first.config.paths.toolsDir).mode & 0o777).toBe(0o700);
    const file = first.config.paths.toolsFile('s01');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const body = JSON.parse(await readFile(file, 'utf8')) as { server: string; updatedAt: string; tools: CachedTool[] };
    expect(body).toMatchObject({ server: 's01', updatedAt: expect.any(String) });
    expect(body.tools).toHaveLength(12);

    const hub = await startHarness(home);
    const listed = (await hub.client.listTools()).tools.map(tool => tool.name);
    expect(listed).toHaveLength(20 * 12);
    expect(listed).toContain('s20.tool_11');
    expect(spawnCount(spawns)).toBe(0);
  });

  test('an older db.json with tools inline is listed, then moved to tools/<name>.json on the next cache write', async () => {
    const home = await makeHubHome();
    const spawns = join(await scratch(home), 'spawns');
    const record = commandRecord('echo', [ECHO], { env: { ECHO_SPAWN_LOG: spawns } });
    const inline = [{ name: 'old_tool', description: 'Listed by an older version.', inputSchema: { type: 'object' } }];
    const old = {
      version: 1,
      servers: { echo: { ...record, tools: inline, toolsUpdatedAt: '2026-01-01T00:00:00.000Z' } },
      processes: {},
      reservations: {},
    };
    const setup = await startHarness(home);
    await setup.close();
    await writeFile(setup.config.paths.db, `${JSON.stringify(old, null, 2)}\n`, { mode: 0o600 });

    const hub = await startHarness(home);
    expect((await hub.client.listTools()).tools.map(tool => tool.name)).toEqual(['echo.old_tool']);
    expect(spawnCount(spawns)).toBe(0);
    expect(existsSync(hub.config.paths.toolsFile('echo'))).toBe(false);

    await hub.manager.start('echo');
    expect(readToolCache(hub.config.paths, 'echo')?.map(tool => tool.name)).toContain('echo');
    const stored = (await hub.store.read()).servers.echo;
    expect(stored?.tools).toBeUndefined();
    expect(stored?.toolsUpdatedAt).not.toBe('2026-01-01T00:00:00.000Z');
    expect(await readFile(hub.config.paths.db, 'utf8')).not.toContain('inputSchema');
    expect((await hub.client.listTools()).tools.map(tool => tool.name)).toContain('echo.echo');
  });

  test("another hub's cache write reaches this hub through db.json, without it starting the server", async () => {
    const home = await makeHubHome();
    const spawns = join(await scratch(home), 'spawns');
    const a = await startHarness(home);
    await putRecords(a.store, commandRecord('echo', [ECHO], { env: { ECHO_SPAWN_LOG: spawns } }));
    await a.manager.reload();
    const b = await startHarness(home);
    await b.manager.reload();
    expect((await b.client.listTools()).tools).toEqual([]);

    await a.manager.start('echo');
    await until(async () => expect((await b.client.listTools()).tools.map(tool => tool.name)).toContain('echo.echo'));
    expect(spawnCount(spawns)).toBe(1);
  });

  test('uninstall removes tools/<name>.json', async () => {
    const home = await makeHubHome();
    const hub = await startHarness(home);
    await putRecords(hub.store, commandRecord('echo', [ECHO]));
    await hub.manager.reload();
    await hub.manager.start('echo');
    const file = hub.config.paths.toolsFile('echo');
    expect(existsSync(file)).toBe(true);

    await uninstallServer('echo', { config: hub.config, log: silentLogger, store: hub.store, manager: hub.manager });
    expect(existsSync(file)).toBe(false);
    expect((await hub.store.read()).servers.echo).toBeUndefined();
    expect((await hub.client.listTools()).tools).toEqual([]);
  });
});
