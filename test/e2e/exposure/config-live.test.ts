// Settings that apply (issue 27): the shared hub follows config.json while it runs, so the way
// out a consent error names ("set install.confirm …, then call registry_install again") works
// without `hub stop`. A file that does not validate or parse keeps the last good settings with
// one warning naming the file and the field. And a client that declines or cancels without a
// person (codex exec, claude -p) is told so, with the way that works instead. The built server
// in shared-hub mode (spawnHub), the names real clients send, a real child (changing-server.mjs).
import { readFileSync, existsSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect, test, vi } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { fixture, spawnHub, textOf, type HubSession } from '../../helpers/hub.js';
import { sharedHubPid } from '../../helpers/shared-hub.js';

const register = { command: process.execPath, args: [fixture('changing-server.mjs')], name: 'chg' };

const logOf = (home: string): string => {
  const file = join(home, 'logs', 'hub.log');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
};
const logLines = (home: string, text: string): string[] =>
  logOf(home)
    .split('\n')
    .filter(line => line.includes(text));

// Written as editors and scripts do: to a temporary file, renamed over config.json.
async function writeConfig(home: string, text: string): Promise<void> {
  const file = join(home, 'config.json');
  await writeFile(`${file}.tmp`, text);
  await rename(`${file}.tmp`, file);
}

// The shared hub logged that it applied a change naming this setting: an event, not a clock.
async function applied(home: string, setting: string, count: number): Promise<void> {
  await vi.waitFor(
    () =>
      expect(
        logLines(home, 'config.json changed').filter(line => line.includes(setting)).length,
      ).toBeGreaterThanOrEqual(count),
    { timeout: 15_000, interval: 100 },
  );
}

async function expectInstalled(hub: HubSession): Promise<void> {
  const result = await hub.call('registry_install', register);
  expect(result.isError, textOf(result)).toBeFalsy();
  expect(textOf(await hub.call('chg_add', { a: 2, b: 3 }))).toBe('5');
}

test('install.confirm changed mid-session applies to the running shared hub; an invalid file keeps the last good one', async () => {
  const home = await makeHubHome();
  const configFile = join(home, 'config.json');
  await writeFile(configFile, JSON.stringify({ install: { confirm: 'always' } }));
  // Claude Code without elicitation, as the issue reproduced it.
  const hub = await spawnHub(home, { clientName: 'claude-code' });
  try {
    const refused = await hub.call('registry_install', register);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^CONSENT_UNAVAILABLE: /);
    expect(textOf(refused)).toContain(`set "install": { "confirm": "if-supported" } in ${configFile}`);
    expect(textOf(refused)).toContain('no restart');
    const daemon = sharedHubPid(home);

    // A typo: named with the file and the field, once; "always" stays.
    await writeConfig(home, JSON.stringify({ install: { confirm: 'if-suported' } }));
    await vi.waitFor(() => expect(logLines(home, 'config.json not applied')).toHaveLength(1), {
      timeout: 15_000,
      interval: 100,
    });
    expect(logLines(home, 'config.json not applied')[0]).toContain(`${configFile}: install.confirm`);
    expect(textOf(await hub.call('registry_install', register))).toMatch(/^CONSENT_UNAVAILABLE: /);

    // Cut off half-way: not JSON, named; still "always".
    await writeConfig(home, '{ "install": { "confirm": "if-sup');
    await vi.waitFor(() => expect(logLines(home, 'not valid JSON')).toHaveLength(1), {
      timeout: 15_000,
      interval: 100,
    });
    expect(logLines(home, 'not valid JSON')[0]).toContain(configFile);
    expect(textOf(await hub.call('registry_install', register))).toMatch(/^CONSENT_UNAVAILABLE: /);

    // What the error said to do: set it, then call again. No `hub stop`, the same shared hub.
    await writeConfig(home, JSON.stringify({ install: { confirm: 'if-supported' } }));
    await applied(home, 'install.confirm', 1);
    await expectInstalled(hub);
    expect(sharedHubPid(home)).toBe(daemon);
    // Each problem was told once.
    expect(logLines(home, 'config.json not applied')).toHaveLength(2);
  } finally {
    await hub.close();
  }
}, 120_000);

test('codex exec declines by itself: the decline says so and names the setting, which then works mid-session', async () => {
  const home = await makeHubHome();
  const hub = await spawnHub(home, { clientName: 'codex-mcp-client', capabilities: { elicitation: {} } });
  hub.client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'decline' }));
  try {
    const declined = await hub.call('registry_install', register);
    expect(declined.isError).toBe(true);
    const text = textOf(declined);
    expect(text).toMatch(/^CONSENT_DECLINED: /);
    expect(text).toContain('codex-mcp-client may have declined without showing anyone the question');
    expect(text).toContain(`set "install": { "confirm": "never" } in ${join(home, 'config.json')}`);
    expect(text).toContain('then call registry_install again');

    await writeConfig(home, JSON.stringify({ install: { confirm: 'never' } }));
    await applied(home, 'install.confirm', 1);
    await expectInstalled(hub);
  } finally {
    await hub.close();
  }
}, 120_000);

test('claude -p cancels unseen: CONSENT_UNAVAILABLE names the setting, which then works mid-session', async () => {
  const home = await makeHubHome();
  const hub = await spawnHub(home, { clientName: 'claude-code', capabilities: { elicitation: {} } });
  hub.client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'cancel' }));
  try {
    const cancelled = await hub.call('registry_install', register);
    expect(textOf(cancelled)).toMatch(/^CONSENT_UNAVAILABLE: .*cancelled without an answer/);
    expect(textOf(cancelled)).toContain('"confirm": "never"');

    await writeConfig(home, JSON.stringify({ install: { confirm: 'never' } }));
    await applied(home, 'install.confirm', 1);
    await expectInstalled(hub);
  } finally {
    await hub.close();
  }
}, 120_000);
