// One client's environment is not everyone's (issue 27): two clients of one shared hub, each
// with its own npm_config_registry. Client A (codex-mcp-client) starts the shared hub with a
// registry on a dead 127.0.0.1 port; client B (claude-code) names the HTTPS registry stand-in and
// its CA. Each install runs npm with its own client's variables: B's succeeds, A's fails with
// npm naming A's port. No npmrc names the registry (an empty global prefix), so only the clients' variables
// can lead npm there. Real npm, the built server, no network.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import getPort from 'get-port';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { SERVER_JS, fixture, spawnHub, textOf } from '../../helpers/hub.js';
import { startNpmHttpsRegistry, type NpmHttpsRegistry } from '../../helpers/npm-https-registry.js';
import { sharedHubPid } from '../../helpers/shared-hub.js';

const run = promisify(execFile);

let registry: NpmHttpsRegistry;
beforeAll(async () => {
  registry = await startNpmHttpsRegistry();
});
afterAll(async () => {
  await registry.close();
});

test("each client's install runs npm with that client's npm_config_registry, not the first client's", async () => {
  const home = await makeHubHome();
  // The first search per environment reads npm's settings (a short npm run): room on a busy machine.
  await writeFile(join(home, 'config.json'), JSON.stringify({ searchTimeoutMs: 30_000 }));
  // Nothing listens here: npm fails at once (no retries), where a hung port would hang.
  const deadPort = await getPort({ host: '127.0.0.1' });
  // No global npmrc: the registry and CA come from each client's environment only.
  const common = { ...registry.env, NPM_CONFIG_PREFIX: mkdtempSync(join(tmpdir(), 'hub-npm-prefix-')) };
  const a = await spawnHub(home, {
    clientName: 'codex-mcp-client',
    env: {
      ...common,
      npm_config_registry: `http://127.0.0.1:${deadPort}/`,
      npm_config_fetch_retries: '0',
      HUB_TEST_CLIENT: 'a',
    },
  });
  const b = await spawnHub(home, {
    clientName: 'claude-code',
    env: { ...common, npm_config_registry: registry.url, npm_config_cafile: registry.caFile, HUB_TEST_CLIENT: 'b' },
  });
  try {
    // One shared hub for both, started by A's entry (it holds A's environment).
    expect(textOf(await a.call('registry_list'))).toBeDefined();
    const daemon = sharedHubPid(home);
    expect(daemon).toBeDefined();

    // Search too: B's registry over HTTPS with B's CA (npm_config_cafile); A's dead port for A.
    const found = await b.call('registry_search', { query: 'hub-test-echo', sources: ['npm'] });
    expect(found.structuredContent, textOf(found)).toMatchObject({ sources: [{ source: 'npm', ok: true }] });
    expect(textOf(found)).toContain('hub-test-echo');
    const notFound = await a.call('registry_search', { query: 'hub-test-echo', sources: ['npm'] });
    expect(JSON.stringify(notFound.structuredContent)).toContain(`127.0.0.1:${deadPort}`);

    const installed = await b.call('registry_install', { package: 'hub-test-echo' });
    expect(installed.isError, textOf(installed)).toBeFalsy();
    expect(installed.structuredContent).toMatchObject({ name: 'mcp-hub-test-echo', version: '1.0.0', state: 'ready' });
    expect(registry.requests).toContain('/hub-test-echo/-/hub-test-echo-1.0.0.tgz');
    expect(textOf(await b.call('mcp-hub-test-echo_echo', { message: 'from b' }))).toBe('from b');

    const failed = await a.call('registry_install', { package: 'hub-test-echo', name: 'echo-a' });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toMatch(/^INSTALL_FAILED: /);
    // npm's own words: it went to A's dead port (B's registry answered B).
    expect(textOf(failed)).toMatch(new RegExp(`ECONNREFUSED[\\s\\S]*port: ${deadPort}\\b`));
    expect(sharedHubPid(home)).toBe(daemon);

    // A child server gets the base environment and its record's env: no client's npm settings.
    const registered = await b.call('registry_install', {
      command: process.execPath,
      args: [fixture('changing-server.mjs')],
      name: 'chg',
    });
    expect(registered.isError, textOf(registered)).toBeFalsy();
    for (const key of ['npm_config_registry', 'npm_config_cafile', 'HUB_TEST_CLIENT'])
      expect(textOf(await b.call('chg_env', { key })), key).toBe('(unset)');
  } finally {
    await a.close();
    await b.close();
  }
}, 180_000);

test("a per-session server's base variables are its own client's, never the first client's", async () => {
  const home = await makeHubHome();
  const a = await spawnHub(home, {
    clientName: 'codex-mcp-client',
    env: { TZ: 'Europe/Paris', HTTPS_PROXY: 'http://127.0.0.1:9/a' },
  });
  const b = await spawnHub(home, { clientName: 'claude-code', env: { TZ: 'Asia/Tokyo', HTTPS_PROXY: undefined } });
  try {
    const registered = await a.call('registry_install', {
      command: process.execPath,
      args: [fixture('changing-server.mjs')],
      name: 'chg',
    });
    expect(registered.isError, textOf(registered)).toBeFalsy();
    // One child per session from here on (the person's setting, typed in a terminal).
    await run(process.execPath, [SERVER_JS, 'servers', 'configure', 'chg', '--per-session'], {
      env: { ...process.env, HUB_HOME: home },
    });
    await vi.waitFor(async () => expect(textOf(await b.call('chg_env', { key: 'TZ' }))).toBe('Asia/Tokyo'), {
      timeout: 20_000,
      interval: 200,
    });
    expect(textOf(await b.call('chg_env', { key: 'HTTPS_PROXY' }))).toBe('(unset)');
    expect(textOf(await a.call('chg_env', { key: 'TZ' }))).toBe('Europe/Paris');
    expect(textOf(await a.call('chg_env', { key: 'HTTPS_PROXY' }))).toBe('http://127.0.0.1:9/a');
  } finally {
    await a.close();
    await b.close();
  }
}, 120_000);
