// config.json read again by a running hub (issue 27): the settings change in place for the
// config and every session's config over it, the environment still wins, a file that does not
// validate or parse keeps the last good settings and says which file and field, and the watcher
// applies an edit and warns once per problem. A real file in a temp HUB_HOME.
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, expect, test, vi } from 'vitest';
import { loadConfig, reloadConfig, sessionConfig } from '../../src/core/config/config.js';
import { watchConfig } from '../../src/core/config/watch.js';

const homes: string[] = [];
afterEach(async () => {
  await Promise.all(homes.splice(0).map(home => rm(home, { recursive: true, force: true })));
});

async function homeWith(config: unknown): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'hub-config-'));
  homes.push(home);
  await writeFile(join(home, 'config.json'), JSON.stringify(config));
  return home;
}

const write = async (home: string, text: string) => {
  await writeFile(join(home, 'config.json.tmp'), text);
  await rename(join(home, 'config.json.tmp'), join(home, 'config.json'));
};

test('reloadConfig changes the settings in place, for sessions too; the environment still wins', async () => {
  const home = await homeWith({
    install: { confirm: 'always' },
    searchTimeoutMs: 5000,
    npmRegistry: 'https://a.test/',
  });
  const config = loadConfig({ HUB_HOME: home, HUB_NPM_REGISTRY: 'https://env.test/' });
  const session = sessionConfig(config, { HUB_TOOL_NAMES: 'dotted' });
  expect(config.install.confirm).toBe('always');

  await write(
    home,
    JSON.stringify({ install: { confirm: 'never' }, searchTimeoutMs: 6000, npmRegistry: 'https://b.test/' }),
  );
  expect(reloadConfig(config)).toEqual({ changed: ['searchTimeoutMs', 'install.confirm'] });
  expect(config.install.confirm).toBe('never');
  expect(config.searchTimeoutMs).toBe(6000);
  expect(session.install.confirm).toBe('never');
  expect(session.searchTimeoutMs).toBe(6000);
  // The session's own naming and the hub's HUB_NPM_REGISTRY are not the file's to change.
  expect(session.toolNames).toBe('dotted');
  expect(config.npmRegistry).toBe('https://env.test/');
  expect(reloadConfig(config)).toEqual({ changed: [] });
});

test('a file that does not validate or parse keeps the last good settings and names the file and field', async () => {
  const home = await homeWith({ install: { confirm: 'never' } });
  const config = loadConfig({ HUB_HOME: home });
  await write(home, JSON.stringify({ install: { confirm: 'nevr' }, callTimeoutMs: 5 }));
  const typo = reloadConfig(config);
  expect(typo).toMatchObject({ problem: expect.stringMatching(new RegExp(`^${join(home, 'config.json')}: `)) });
  expect(typo).toMatchObject({ problem: expect.stringContaining('install.confirm: Invalid option') });
  expect(typo).toMatchObject({ problem: expect.stringContaining('callTimeoutMs: Too small') });
  expect(config.install.confirm).toBe('never');
  await write(home, '{"install": {"confirm": "alw');
  expect(reloadConfig(config)).toMatchObject({ problem: expect.stringMatching(/config\.json: not valid JSON/) });
  expect(config.install.confirm).toBe('never');
  // No file at all: the defaults.
  await rm(join(home, 'config.json'));
  expect(reloadConfig(config)).toEqual({ changed: ['install.confirm'] });
  expect(config.install.confirm).toBe('if-supported');
});

test('watchConfig applies an edit and warns once per problem, with what applies after hub-mcp stop', async () => {
  const home = await homeWith({});
  const config = loadConfig({ HUB_HOME: home });
  const lines: { level: number; msg: string }[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const changes: (readonly string[])[] = [];
  const stop = watchConfig(config, log, changed => changes.push(changed));
  try {
    await write(home, JSON.stringify({ install: { confirm: 'never' }, callTimeoutMs: 1000 }));
    await vi.waitFor(() => expect(config.install.confirm).toBe('never'), { timeout: 10_000, interval: 20 });
    await vi.waitFor(() => expect(changes).toEqual([['callTimeoutMs', 'install.confirm']]), { timeout: 10_000 });
    expect(lines.at(-1)?.msg).toBe(
      'config.json changed: callTimeoutMs, install.confirm (callTimeoutMs applies after `hub-mcp stop`)',
    );

    await write(home, JSON.stringify({ install: { confirm: 'sometimes' } }));
    const warnings = () => lines.filter(line => line.level === 40).map(line => line.msg);
    await vi.waitFor(() => expect(warnings()).toHaveLength(1), { timeout: 10_000, interval: 20 });
    expect(warnings()[0]).toContain(
      `not applied, keeping the settings in use: ${join(home, 'config.json')}: install.confirm`,
    );
    // Saved again unchanged: no second warning for the same problem.
    await write(home, JSON.stringify({ install: { confirm: 'sometimes' } }, null, 2));
    await write(home, JSON.stringify({ install: { confirm: 'always' } }));
    await vi.waitFor(() => expect(config.install.confirm).toBe('always'), { timeout: 10_000, interval: 20 });
    expect(warnings()).toHaveLength(1);
  } finally {
    stop();
  }
});

test('an oversized config.json is not read and says so; many problems are summed up', async () => {
  const home = await homeWith({ install: { confirm: 'never' } });
  const config = loadConfig({ HUB_HOME: home });
  await write(home, JSON.stringify({ exposure: { pin: [] }, padding: 'x'.repeat(2 * 1024 * 1024) }));
  expect(reloadConfig(config)).toMatchObject({
    problem: expect.stringMatching(/config\.json: \d+ bytes, over the 1048576/),
  });
  expect(config.install.confirm).toBe('never');
  await write(home, JSON.stringify({ exposure: { pin: Array.from({ length: 8 }, () => '') } }));
  expect(reloadConfig(config)).toMatchObject({ problem: expect.stringContaining('(and 3 more)') });
  expect(config.install.confirm).toBe('never');
});
