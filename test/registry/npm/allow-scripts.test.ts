// registry.install allowScripts: asked for with the install (the consent names the packages),
// kept in the record, reused and asked again by upgrades. Built hub, fake npm, a real client.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect, test } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, textOf } from '../../helpers/hub.js';
import { fakeNpm } from '../../helpers/install.js';

const record = async (home: string) =>
  (
    JSON.parse(await readFile(join(home, 'db.json'), 'utf8')) as {
      servers: Record<string, { version: string; allowScripts?: unknown }>;
    }
  ).servers.some;

test('allowScripts is approved with the install, kept in the record and asked again on upgrade', async () => {
  const home = await makeHubHome();
  const npm = fakeNpm(home);
  const asked: string[] = [];
  const hub = await spawnHub(home, {
    env: { ...npm.env, HUB_TOOL_NAMES: 'dotted' },
    capabilities: { elicitation: {} },
  });
  try {
    hub.client.setRequestHandler(ElicitRequestSchema, request => {
      asked.push(request.params.message);
      return { action: 'accept', content: { approve: true } };
    });
    const installed = await hub.call('registry.install', {
      package: 'some-server@1.0.0',
      allowScripts: ['sqlite3'],
      start: false,
    });
    expect(installed.isError, textOf(installed)).toBeFalsy();
    expect(asked[0]).toMatch(/Install scripts .* of these packages will run on this machine: sqlite3\./);
    expect((await record(home))?.allowScripts).toEqual(['sqlite3']);

    const upgraded = await hub.call('registry.install', { package: 'some-server@2.0.0', upgrade: true, start: false });
    expect(upgraded.isError, textOf(upgraded)).toBeFalsy();
    expect(asked).toHaveLength(2);
    expect(asked[1]).toMatch(
      /^Upgrade MCP server "some" from some-server@1\.0\.0 to the npm package "some-server@2\.0\.0"\?/,
    );
    expect(asked[1]).toContain('of these packages will run on this machine: sqlite3.');
    expect(await record(home)).toMatchObject({ version: '2.0.0', allowScripts: ['sqlite3'] });

    // Turning scripts off is a reinstall of the same version without them, approved again.
    const off = await hub.call('registry.install', { package: 'some-server', allowScripts: false, start: false });
    expect(off.isError, textOf(off)).toBeFalsy();
    expect(asked).toHaveLength(3);
    expect(await record(home)).toMatchObject({ version: '2.0.0', allowScripts: false });

    const bad = await hub.call('registry.install', { package: 'other-server', allowScripts: ['../x'] });
    expect(textOf(bad)).toMatch(/^INVALID_INPUT: Field "allowScripts"/);
  } finally {
    await hub.close();
  }
  const runs = await npm.runs();
  expect(runs).toHaveLength(3);
  // npm always installs with --ignore-scripts; the allowed packages are then built with
  // `npm rebuild <names>` when the tree has them (this stand-in installs none).
  for (const run of runs) expect(run).toContain('--ignore-scripts');
  expect(runs[1]?.at(-1)).toBe('some-server@2.0.0');
  expect(runs[2]?.at(-1)).toBe('some-server@2.0.0');
});
