// Issue 14 item 3: per-server settings (registry.configure, `hub servers configure|enable|disable`)
// live in the store, so every running hub sharing HUB_HOME applies them without a restart and
// sends tools/list_changed; a refused call says why and how to change it; env values are never
// shown. Real hubs (dist/server.js over stdio), a real child (test/fixtures/changing-server.mjs).
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect, test } from 'vitest';
import { cliStdout } from '../../helpers/cli.js';
import { makeHubHome, sharedFile } from '../../helpers/home.js';
import { fixture, spawnHub, textOf, type HubSession } from '../../helpers/hub.js';
import { spawnCount, until } from '../../proxy/harness.js';

const CHANGING = fixture('changing-server.mjs');

/** Counts tools/list_changed the hub sent this client. */
function listChanges(hub: HubSession): () => number {
  let count = 0;
  hub.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    count += 1;
  });
  return () => count;
}

const names = async (hub: HubSession): Promise<string[]> =>
  (await hub.client.listTools()).tools.map(tool => tool.name).filter(name => name.startsWith('chg_'));

async function installChanging(hub: HubSession, home: string, env: Record<string, string> = {}): Promise<string> {
  const starts = sharedFile(home, 'starts.log');
  const installed = await hub.call('registry_install', {
    command: process.execPath,
    args: [CHANGING],
    name: 'chg',
    env: { CHANGING_STARTS: starts, CHANGING_TOOLS_FILE: sharedFile(home, 'tools-spec.json'), ...env },
  });
  expect(installed.isError, textOf(installed)).toBeFalsy();
  return starts;
}

test('allow, deny and disable made in one hub or the CLI apply in a second running hub at once; nothing starts a child to list', async () => {
  const home = await makeHubHome();
  const a = await spawnHub(home);
  // A hub process of its own (a is a session of the shared hub): the settings reach it through the store.
  const b = await spawnHub(home, { env: { HUB_SHARED: 'off' } });
  try {
    const changes = listChanges(b);
    const starts = await installChanging(a, home);
    await until(async () =>
      expect(await names(b)).toEqual(['chg_greet', 'chg_add', 'chg_env', 'chg_argv', 'chg_relist']),
    );
    const started = spawnCount(starts);
    expect(started).toBe(1);

    let seen = changes();
    const denied = await a.call('registry_configure', { server: 'chg', tools: { deny: ['gr*', 'rel?st', 'argv'] } });
    expect(denied.isError, textOf(denied)).toBeFalsy();
    expect(denied.structuredContent).toMatchObject({
      enabled: true,
      tools: { deny: ['gr*', 'rel?st', 'argv'] },
      listed: 2,
    });
    await until(async () => expect(await names(b)).toEqual(['chg_add', 'chg_env']));
    expect(changes()).toBeGreaterThan(seen);
    // Refused by name (fast path) and through registry.call, saying why and what changes it.
    const refused = await b.call('chg_greet', { name: 'x' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(
      /^TOOL_REFUSED: Tool "greet" of server "chg" is turned off .*tools\.deny "gr\*".*registry_configure/,
    );
    const viaCall = await b.call('registry_call', { server: 'chg', tool: 'greet', arguments: { name: 'x' } });
    expect(viaCall.isError).toBe(true);
    expect(textOf(viaCall)).toContain('TOOL_REFUSED');

    // From a terminal: allow only "add" (deny cleared); both hubs follow.
    seen = changes();
    await cliStdout(home, 'servers', 'configure', 'chg', '--no-deny', '--allow', 'add');
    await until(async () => expect(await names(b)).toEqual(['chg_add']));
    await until(async () => expect(await names(a)).toEqual(['chg_add']));
    expect(changes()).toBeGreaterThan(seen);
    expect(textOf(await b.call('chg_env', { key: 'PATH' }))).toMatch(/not in tools\.allow \["add"\]/);

    // Disabled: nothing listed, the running child in hub A stops, calls refused without a start.
    const disabled = await cliStdout(home, 'servers', 'disable', 'chg');
    expect(disabled).toContain('chg: disabled, 0 tools listed');
    await until(async () => expect(await names(b)).toEqual([]));
    await until(async () => expect(await names(a)).toEqual([]));
    for (const hub of [a, b]) {
      const call = await hub.call('chg_add', { a: 1, b: 2 });
      expect(textOf(call)).toMatch(/^SERVER_DISABLED: Server "chg" is disabled.*`hub-mcp servers enable chg`/);
      const viaRegistry = await hub.call('registry_call', { server: 'chg', tool: 'add', arguments: { a: 1, b: 2 } });
      expect(textOf(viaRegistry)).toContain('SERVER_DISABLED');
      const listed = await hub.call('registry_list', { server: 'chg' });
      expect(textOf(listed)).toContain('disabled: not started, nothing listed');
    }
    expect(textOf(await b.call('registry_list'))).toMatch(/^chg .* 0 tools .*disabled/m);
    expect(await cliStdout(home, 'servers')).toMatch(/^chg\s+\(command\)\s+disabled\s/m);
    await until(async () =>
      expect(JSON.parse(await cliStdout(home, 'servers', '--json'))[0]).toMatchObject({
        name: 'chg',
        state: 'stopped',
      }),
    );
    // Listing, refusing and describing started nothing.
    expect(spawnCount(starts)).toBe(started);

    await cliStdout(home, 'servers', 'enable', 'chg');
    await until(async () => expect(await names(b)).toEqual(['chg_add']));
    expect(textOf(await b.call('chg_add', { a: 2, b: 3 }))).toBe('5');
    expect(spawnCount(starts)).toBe(started + 1);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}, 120_000);

test('env values are secrets: set through registry.configure and the CLI, never shown back; a running child restarts with them', async () => {
  const home = await makeHubHome();
  const hub = await spawnHub(home);
  try {
    const starts = await installChanging(hub, home);
    expect(textOf(await hub.call('chg_env', { key: 'TOKEN' }))).toBe('(unset)');
    const secret = 's3cret-value-8d1f';
    const configured = await hub.call('registry_configure', { server: 'chg', env: { TOKEN: secret } });
    expect(configured.isError, textOf(configured)).toBeFalsy();
    expect(JSON.stringify(configured)).not.toContain(secret);
    expect(configured.structuredContent).toMatchObject({ restarted: true, state: 'ready' });
    expect((configured.structuredContent as { envKeys: string[] }).envKeys).toContain('TOKEN');
    expect(spawnCount(starts)).toBe(2);
    expect(textOf(await hub.call('chg_env', { key: 'TOKEN' }))).toBe(secret);
    expect(JSON.stringify(await hub.call('registry_list', { server: 'chg' }))).not.toContain(secret);

    const other = 'another-secret-77c2';
    const printed = await cliStdout(home, 'servers', 'configure', 'chg', '--env', `TOKEN=${other}`, '--json');
    expect(printed).not.toContain(other);
    expect(JSON.parse(printed)).toMatchObject({ name: 'chg', envKeys: expect.arrayContaining(['TOKEN']) });
    // The hub running it saw its launch settings change: its child starts again with the new value.
    await until(async () => expect(textOf(await hub.call('chg_env', { key: 'TOKEN' }))).toBe(other));
    // "" removes a variable.
    await hub.call('registry_configure', { server: 'chg', env: { TOKEN: '' } });
    expect(textOf(await hub.call('chg_env', { key: 'TOKEN' }))).toBe('(unset)');

    // Args replace the child's args; the running child starts again with them.
    expect(textOf(await hub.call('chg_argv'))).toBe('[]');
    const args = await hub.call('registry_configure', { server: 'chg', args: [CHANGING, '--mode', 'two'] });
    expect(args.structuredContent).toMatchObject({ restarted: true, args: [CHANGING, '--mode', 'two'] });
    expect(textOf(await hub.call('chg_argv'))).toBe('["--mode","two"]');

    const bad = await hub.call('registry_configure', { server: 'chg', env: { 'BAD KEY': 'x' } });
    expect(textOf(bad)).toMatch(/^INVALID_INPUT: Field "env" has invalid variable names/);
    const unknown = await hub.call('registry_configure', { server: 'nope', enabled: false });
    expect(textOf(unknown)).toMatch(/^NOT_FOUND: No server named "nope"/);
    const empty = await hub.call('registry_configure', { server: 'chg', tools: { deny: [''] } });
    expect(empty.isError).toBe(true);
    expect(textOf(empty)).toContain('tools.deny');
  } finally {
    await hub.close();
  }
}, 120_000);

test('a disabled server with no cached tools is described by registry.list without being started', async () => {
  const home = await makeHubHome();
  const hub = await spawnHub(home);
  try {
    const starts = sharedFile(home, 'starts.log');
    const saved = await hub.call('registry_install', {
      command: process.execPath,
      args: [CHANGING],
      name: 'chg',
      env: { CHANGING_STARTS: starts },
      start: false,
    });
    expect(saved.isError, textOf(saved)).toBeFalsy();
    await hub.call('registry_configure', { server: 'chg', enabled: false });
    const described = await hub.call('registry_list', { server: 'chg' });
    expect(described.isError, textOf(described)).toBeFalsy();
    expect(described.structuredContent).toMatchObject({ settings: { enabled: false }, tools: [] });
    expect(textOf(await hub.call('registry_call', { server: 'chg', tool: 'add', arguments: {} }))).toContain(
      'SERVER_DISABLED',
    );
    expect(spawnCount(starts)).toBe(0);
  } finally {
    await hub.close();
  }
}, 120_000);
