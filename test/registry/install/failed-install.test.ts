// A failed install leaves no record and no listed tools: a CLI that is not an MCP server, from
// npm (fake npm on PATH, built hub) or as a command (in-process hub); other servers are untouched.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { fixture, spawnHub, startHubInProcess, textOf, type HubSession } from '../../helpers/hub.js';
import { fakeNpm } from '../../helpers/install.js';

async function servers(home: string): Promise<Record<string, unknown>> {
  const db = join(home, 'db.json');
  return existsSync(db) ? JSON.parse(await readFile(db, 'utf8')).servers : {};
}

async function listedNames(hub: HubSession): Promise<string[]> {
  return (await hub.client.listTools()).tools.map(tool => tool.name);
}

describe('failed installs leave nothing behind', () => {
  test('registering a command that is not an MCP server keeps no record and no tools', async () => {
    const home = await makeHubHome();
    const hub = await startHubInProcess(home);
    try {
      const good = await hub.call('registry.install', {
        command: process.execPath,
        args: [fixture('echo-server.mjs')],
        name: 'echo',
      });
      expect(good.isError, textOf(good)).toBeFalsy();
      const before = await listedNames(hub);
      const result = await hub.call('registry.install', {
        command: process.execPath,
        args: ['-e', "console.log('usage: mytool [options]'); process.exit(1)"],
        name: 'mytool',
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /Server "mytool" did not start as an MCP server, so it was not installed \(no record, no tools\)/,
      );
      expect(Object.keys(await servers(home))).toEqual(['echo']);
      expect(existsSync(join(home, 'tools', 'mytool.json'))).toBe(false);
      expect(await listedNames(hub)).toEqual(before);
      const listed = await hub.call('registry.list');
      expect((listed.structuredContent as { servers: { name: string }[] }).servers.map(s => s.name)).toEqual(['echo']);
      // Nothing is in the way of a retry under the same name.
      const retry = await hub.call('registry.install', {
        command: process.execPath,
        args: [fixture('echo-server.mjs')],
        name: 'mytool',
      });
      expect(retry.isError, textOf(retry)).toBeFalsy();
    } finally {
      await hub.close();
    }
  });

  test('an npm package whose bin is a CLI, not an MCP server, keeps no record', async () => {
    const home = await makeHubHome();
    const npm = fakeNpm(home);
    const hub = await spawnHub(home, { env: npm.env });
    try {
      const result = await hub.call('registry.install', { package: 'cli-tool@1.0.0' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/package "cli-tool" is an MCP server/);
      expect(await servers(home)).toEqual({});
      expect((await listedNames(hub)).filter(name => name.startsWith('cli'))).toEqual([]);
      expect(await npm.runs()).toHaveLength(1);
    } finally {
      await hub.close();
    }
  });
});
