// Issue 27 item 9: an install as a person and a client follow it. `hub servers` shows an install
// a hub goes on with in the background (its step), not only installed servers; and the steps a
// client is sent as progress only go forward. The built server over stdio with the stand-in npm
// (test/fixtures/install-fake-npm): no network.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, test, vi } from 'vitest';
import { cli } from '../../helpers/cli.js';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, textOf } from '../../helpers/hub.js';
import { fakeNpm } from '../../helpers/install.js';

test('hub-mcp servers shows an install still running in the background, with its step, then the server', async () => {
  const home = await makeHubHome();
  await writeFile(join(home, 'config.json'), JSON.stringify({ install: { foregroundMs: 500 } }));
  const npm = fakeNpm(home, { FAKE_NPM_SLOW_MS: '10000' });
  const hub = await spawnHub(home, { env: npm.env, clientName: 'claude-code' });
  try {
    const result = await hub.call('registry_install', { package: 'slow-server' });
    expect(result.structuredContent).toMatchObject({ name: 'slow', state: 'installing', background: true });

    const table = await cli(home, 'servers');
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^slow\s+slow-server\s+installing\s+-\s+-\s+-$/m);
    expect(table.stdout).toMatch(/^slow: installing in the background since \d\d:\d\d:\d\d UTC \(now: npm: /m);
    expect(table.stdout).not.toContain('No MCP servers installed');
    const json = JSON.parse((await cli(home, 'servers', '--json')).stdout) as Record<string, unknown>[];
    expect(json).toEqual([
      expect.objectContaining({ name: 'slow', package: 'slow-server', state: 'installing', background: true }),
    ]);

    // Once it is ready it is an installed server like any other.
    await vi.waitFor(
      async () => expect((await cli(home, 'servers')).stdout).toMatch(/^slow\s+slow-server@1\.2\.3\s+ready\s/m),
      { timeout: 30_000, interval: 300 },
    );
    expect((await cli(home, 'servers')).stdout).not.toContain('installing');
  } finally {
    await hub.close();
  }
}, 60_000);

// The steps in the order an install goes through them.
const STAGES: [RegExp, number][] = [
  [/^npm: resolving/, 0],
  [/^npm: fetching/, 1],
  [/^npm: linking/, 2],
  [/^npm: added/, 3],
  [/^installed /, 4],
  [/^starting /, 5],
  [/^ready: /, 6],
];
const stageOf = (message: string): number => STAGES.find(([pattern]) => pattern.test(message))?.[1] ?? -1;

test('install progress only goes forward: tarballs after a quiet spell read as linking do not step back', async () => {
  const home = await makeHubHome();
  // npm fetches 3 tarballs, is quiet past the 1.5 s that reads as linking, then fetches 4 more.
  const npm = fakeNpm(home, { FAKE_NPM_LINES: '3', FAKE_NPM_SLOW_MS: '4000', FAKE_NPM_LATE_LINES: '4' });
  const hub = await spawnHub(home, { env: npm.env, clientName: 'claude-code' });
  try {
    const seen: { progress: number; message: string }[] = [];
    const result = (await hub.client.callTool(
      { name: 'registry_install', arguments: { package: 'steps-server' } },
      undefined,
      { onprogress: ({ progress, message }) => seen.push({ progress, message: message ?? '' }) },
    )) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    const messages = seen.map(entry => entry.message);
    // The quiet spell was read as linking: the case where a step could go back.
    expect(messages.some(message => message.startsWith('npm: linking'))).toBe(true);
    const stages = messages.map(stageOf);
    expect(stages, messages.join('\n')).not.toContain(-1);
    for (let i = 1; i < stages.length; i++)
      expect(stages[i], `step ${i} went back:\n${messages.join('\n')}`).toBeGreaterThanOrEqual(stages[i - 1] ?? 0);
    for (let i = 1; i < seen.length; i++) expect(seen[i]?.progress).toBeGreaterThan(seen[i - 1]?.progress ?? 0);
  } finally {
    await hub.close();
  }
}, 60_000);
