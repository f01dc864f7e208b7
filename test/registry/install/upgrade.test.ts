// Data folders, upgrades and uninstall with purge, through the built hub over stdio with the fake
// npm on PATH (its *server-memory package runs test/fixtures/echo-server.mjs). No network.
import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, textOf, type HubSession } from '../../helpers/hub.js';
import { fakeNpm } from '../../helpers/install.js';

const MEMORY = '@modelcontextprotocol/server-memory';

interface Rec {
  version?: string;
  env: Record<string, string>;
  args: string[];
  cwd?: string;
  dataDir?: string;
  allowScripts?: unknown;
}
const db = async (home: string) =>
  JSON.parse(await readFile(join(home, 'db.json'), 'utf8')) as { servers: Record<string, Rec> };
const envOf = async (hub: HubSession, key: string) =>
  textOf(await hub.call('registry.call', { server: 'memory', tool: 'env', arguments: { key } }));

async function withHub(home: string, fn: (hub: HubSession) => Promise<void>): Promise<void> {
  const hub = await spawnHub(home, { env: { ...fakeNpm(home).env, HUB_TOOL_NAMES: 'dotted' } });
  try {
    await fn(hub);
  } finally {
    await hub.close();
  }
}

describe('data folders and upgrades', () => {
  test('a known server gets HUB_HOME/data/<name> (0700) as its data env and working directory', async () => {
    const home = await makeHubHome();
    await withHub(home, async hub => {
      const result = await hub.call('registry.install', { package: `${MEMORY}@1.0.0` });
      expect(result.isError, textOf(result)).toBeFalsy();
      const dataDir = join(home, 'data', 'memory');
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      const record = (await db(home)).servers.memory;
      expect(record).toMatchObject({ dataDir, cwd: dataDir, env: { MEMORY_FILE_PATH: join(dataDir, 'memory.jsonl') } });
      expect(await envOf(hub, 'MEMORY_FILE_PATH')).toContain(join(dataDir, 'memory.jsonl'));
    });
  });

  test('upgrade: true swaps the package and keeps env, args, scripts choice and data; a bare version says how to upgrade', async () => {
    const home = await makeHubHome();
    const dataFile = join(home, 'data', 'memory', 'memory.jsonl');
    await withHub(home, async hub => {
      const first = await hub.call('registry.install', {
        package: `${MEMORY}@1.0.0`,
        env: { MY_SETTING: 'kept' },
        args: ['--flag'],
        allowScripts: ['sqlite3'],
      });
      expect(first.isError, textOf(first)).toBeFalsy();
      await writeFile(dataFile, '{"type":"entity","name":"remember me"}\n');

      const vague = await hub.call('registry.install', { package: `${MEMORY}@2.0.0` });
      expect(textOf(vague)).toMatch(
        /^ALREADY_EXISTS: Server "memory" already runs @modelcontextprotocol\/server-memory@1\.0\.0; to replace it with .*@2\.0\.0, call registry\.install \{ package: ".*@2\.0\.0", name: "memory", upgrade: true \} \(in a terminal: `hub-mcp upgrade memory`\)/,
      );

      const upgraded = await hub.call('registry.install', { package: `${MEMORY}@2.0.0`, upgrade: true });
      expect(upgraded.isError, textOf(upgraded)).toBeFalsy();
      expect(upgraded.structuredContent).toMatchObject({ name: 'memory', version: '2.0.0', state: 'ready' });
      const record = (await db(home)).servers.memory;
      expect(record?.version).toBe('2.0.0');
      expect(record?.args.slice(1)).toEqual(['--flag']);
      expect(record?.env).toMatchObject({ MY_SETTING: 'kept', MEMORY_FILE_PATH: dataFile });
      expect(record?.allowScripts).toEqual(['sqlite3']);
      expect(await envOf(hub, 'MY_SETTING')).toContain('kept');
      expect(await readFile(dataFile, 'utf8')).toContain('remember me');
      expect(existsSync(join(home, 'servers', 'memory.previous'))).toBe(false);
      expect(existsSync(join(home, 'servers', 'memory.upgrade'))).toBe(false);
      const pkg = JSON.parse(
        await readFile(join(home, 'servers', 'memory', 'node_modules', MEMORY, 'package.json'), 'utf8'),
      );
      expect(pkg.version).toBe('2.0.0');
    });
  });

  test('an upgrade that does not start is rolled back to the old version', async () => {
    const home = await makeHubHome();
    await withHub(home, async hub => {
      expect((await hub.call('registry.install', { package: `${MEMORY}@1.0.0` })).isError).toBeFalsy();
      const failed = await hub.call('registry.install', { package: `${MEMORY}@2.0.0-broken`, upgrade: true });
      expect(textOf(failed)).toMatch(/Upgrade of "memory" to .*@2\.0\.0-broken did not start, so 1\.0\.0 was put back/);
      expect((await db(home)).servers.memory?.version).toBe('1.0.0');
      expect(await envOf(hub, 'MEMORY_FILE_PATH')).toContain('memory.jsonl');
    });
  });

  test('uninstall keeps the data folder for a reinstall; purge deletes it', async () => {
    const home = await makeHubHome();
    const dataDir = join(home, 'data', 'memory');
    await withHub(home, async hub => {
      expect((await hub.call('registry.install', { package: `${MEMORY}@1.0.0`, start: false })).isError).toBeFalsy();
      await writeFile(join(dataDir, 'memory.jsonl'), 'graph\n');
      const kept = await hub.call('registry.uninstall', { name: 'memory' });
      expect(kept.structuredContent).toMatchObject({ dataKept: dataDir });
      expect(existsSync(join(home, 'servers', 'memory'))).toBe(false);
      expect(await readFile(join(dataDir, 'memory.jsonl'), 'utf8')).toBe('graph\n');

      expect((await hub.call('registry.install', { package: `${MEMORY}@1.0.0`, start: false })).isError).toBeFalsy();
      expect(await readFile(join(dataDir, 'memory.jsonl'), 'utf8')).toBe('graph\n');
      const purged = await hub.call('registry.uninstall', { name: 'memory', purge: true });
      expect(purged.structuredContent).toMatchObject({ dataRemoved: dataDir });
      expect(existsSync(dataDir)).toBe(false);
    });
  });

  // What an older hub wrote: no data folder, run in the package folder, the graph next to the server's code.
  async function legacyInstall(home: string): Promise<void> {
    await withHub(home, async hub => {
      const installed = await hub.call('registry.install', { package: `${MEMORY}@1.0.0`, start: false });
      expect(installed.isError, textOf(installed)).toBeFalsy();
    });
    const data = await db(home);
    const old = data.servers.memory as Rec;
    const folder = join(home, 'servers', 'memory');
    delete old.dataDir;
    delete old.env.MEMORY_FILE_PATH;
    old.cwd = folder;
    old.args.push('./data.sqlite');
    await writeFile(join(home, 'db.json'), JSON.stringify(data));
    await rm(join(home, 'data'), { recursive: true });
    const dist = join(folder, 'node_modules', MEMORY, 'dist');
    await mkdir(dist, { recursive: true });
    await writeFile(join(dist, 'memory.jsonl'), 'old graph\n');
    await writeFile(join(folder, 'data.sqlite'), 'old db\n');
  }

  test('an upgrade of a record from before data folders copies its data out of the package first', async () => {
    const home = await makeHubHome();
    await legacyInstall(home);
    await withHub(home, async hub => {
      const upgraded = await hub.call('registry.install', { package: `${MEMORY}@2.0.0`, upgrade: true, start: false });
      expect(upgraded.isError, textOf(upgraded)).toBeFalsy();
    });
    const dataDir = join(home, 'data', 'memory');
    expect(await readFile(join(dataDir, 'memory.jsonl'), 'utf8')).toBe('old graph\n');
    expect(await readFile(join(dataDir, 'data.sqlite'), 'utf8')).toBe('old db\n');
    const record = (await db(home)).servers.memory;
    expect(record).toMatchObject({ dataDir, cwd: dataDir, env: { MEMORY_FILE_PATH: join(dataDir, 'memory.jsonl') } });
    expect(record?.args.slice(1)).toEqual([join(dataDir, 'data.sqlite')]);
  });

  test('uninstalling a record from before data folders keeps its data', async () => {
    const home = await makeHubHome();
    await legacyInstall(home);
    await withHub(home, async hub => {
      const removed = await hub.call('registry.uninstall', { name: 'memory' });
      expect(removed.structuredContent).toMatchObject({ dataKept: join(home, 'data', 'memory') });
    });
    expect(await readFile(join(home, 'data', 'memory', 'memory.jsonl'), 'utf8')).toBe('old graph\n');
    expect(existsSync(join(home, 'servers', 'memory'))).toBe(false);
  });
});
