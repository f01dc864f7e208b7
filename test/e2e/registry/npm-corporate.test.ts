// Installs and searches behind "corporate" npm settings: an HTTPS registry on 127.0.0.1 signed by
// a test CA that only the global npmrc (NPM_CONFIG_PREFIX/etc/npmrc) names. hub gets a stripped
// environment (no NODE_EXTRA_CA_CERTS, no registry variable), as Gemini CLI gives it. Real npm,
// no network: the fixture registry serves everything.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, textOf } from '../../helpers/hub.js';
import { startNpmHttpsRegistry, type NpmHttpsRegistry } from '../../helpers/npm-https-registry.js';

let registry: NpmHttpsRegistry;
beforeAll(async () => {
  registry = await startNpmHttpsRegistry();
});
afterAll(async () => {
  await registry.close();
});

describe('npm settings from the global npmrc', () => {
  test('registry.install uses the registry and cafile that only the global npmrc names', async () => {
    const home = await makeHubHome();
    const hub = await spawnHub(home, { env: { ...registry.env, HUB_TOOL_NAMES: 'dotted' } });
    try {
      const result = await hub.call('registry.install', { package: 'hub-test-echo' });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(result.structuredContent).toMatchObject({
        name: 'mcp-hub-test-echo',
        version: '1.0.0',
        state: 'ready',
        tools: ['mcp-hub-test-echo.echo'],
      });
      expect(textOf(await hub.call('mcp-hub-test-echo.echo', { message: 'through the company CA' }))).toBe(
        'through the company CA',
      );
    } finally {
      await hub.close();
    }
    expect(registry.requests).toContain('/hub-test-echo/-/hub-test-echo-1.0.0.tgz');
    // npm ran in the install folder: it saved the dependency in the folder's own package.json.
    const pkg = JSON.parse(await readFile(join(home, 'servers', 'mcp-hub-test-echo', 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    expect(pkg.dependencies).toHaveProperty('hub-test-echo');
    expect(existsSync(join(home, 'servers', 'mcp-hub-test-echo', 'etc'))).toBe(false);
  }, 120_000);

  test("registry.search reaches that registry over HTTPS with npm's cafile, though hub's env names no CA", async () => {
    const home = await makeHubHome();
    // The first search also reads npm's settings (two short npm runs): more than the 4 s default on a busy machine.
    await writeFile(join(home, 'config.json'), JSON.stringify({ searchTimeoutMs: 30_000 }));
    const hub = await spawnHub(home, { env: registry.env });
    try {
      const result = (await hub.call('registry.search', {
        query: 'hub-test-echo',
        sources: ['npm'],
      })) as CallToolResult;
      expect(result.isError, textOf(result)).toBeFalsy();
      const structured = result.structuredContent as {
        results: Array<{ package?: string }>;
        sources: Array<{ source: string; ok: boolean; error?: string }>;
      };
      expect(
        structured.sources.find(source => source.source === 'npm'),
        JSON.stringify(structured.sources),
      ).toMatchObject({ ok: true });
      expect(structured.results.map(entry => entry.package)).toContain('hub-test-echo');
    } finally {
      await hub.close();
    }
    expect(registry.requests.some(path => path.startsWith('/-/v1/search'))).toBe(true);
  }, 60_000);
});

// hub-test-native needs hub-test-addon's install script (a stand-in for sqlite3's native build).
describe('install scripts', () => {
  test('skipped by default: the start failure names the package and the call that allows it, which then works', async () => {
    const home = await makeHubHome();
    const hub = await spawnHub(home, { env: { ...registry.env, HUB_TOOL_NAMES: 'dotted' } });
    try {
      const failed = await hub.call('registry.install', { package: 'hub-test-native' });
      expect(failed.isError).toBe(true);
      expect(textOf(failed)).toContain(
        'The server failed to load a native module: hub-test-addon must run its install scripts to build it, which hub skips unless allowed: hub-test-addon@1.0.0 (install: node build.cjs).',
      );
      expect(textOf(failed)).toContain(
        'Install it again with registry.install { package: "hub-test-native", name: "mcp-hub-test-native", allowScripts: ["hub-test-addon"] }.',
      );

      const allowed = await hub.call('registry.install', {
        package: 'hub-test-native',
        name: 'mcp-hub-test-native',
        allowScripts: ['hub-test-addon'],
      });
      expect(allowed.isError, textOf(allowed)).toBeFalsy();
      expect(allowed.structuredContent).toMatchObject({
        state: 'ready',
        tools: ['mcp-hub-test-native.native_echo'],
        skippedScripts: [],
      });
      expect(textOf(await hub.call('mcp-hub-test-native.native_echo', { message: 'built' }))).toBe('built');
    } finally {
      await hub.close();
    }
  }, 120_000);

  test('allowScripts at install builds only the named packages and lists the rest as skipped', async () => {
    const home = await makeHubHome();
    const hub = await spawnHub(home, { env: { ...registry.env, HUB_TOOL_NAMES: 'dotted' } });
    try {
      const denied = await hub.call('registry.install', {
        package: 'hub-test-native',
        name: 'other',
        allowScripts: ['sqlite3'],
        start: false,
      });
      expect(denied.isError, textOf(denied)).toBeFalsy();
      expect(denied.structuredContent).toMatchObject({
        skippedScripts: [{ name: 'hub-test-addon', version: '1.0.0', scripts: { install: 'node build.cjs' } }],
      });
      expect(textOf(denied)).toContain('Install scripts not run (allow with allowScripts): hub-test-addon@1.0.0');
      expect(existsSync(join(home, 'servers', 'other', 'node_modules', 'hub-test-addon', 'build'))).toBe(false);

      const result = await hub.call('registry.install', {
        package: 'hub-test-native',
        name: 'native',
        allowScripts: true,
      });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ state: 'ready', skippedScripts: [] });
      expect(textOf(await hub.call('native.native_echo', { message: 'ok' }))).toBe('ok');
    } finally {
      await hub.close();
    }
  }, 120_000);
});

describe('a proxy named only in the global npmrc', () => {
  test('npm installs and hub searches through it', async () => {
    const proxied = await startNpmHttpsRegistry({ proxy: true });
    try {
      const home = await makeHubHome();
      await writeFile(join(home, 'config.json'), JSON.stringify({ searchTimeoutMs: 30_000 }));
      const hub = await spawnHub(home, { env: proxied.env });
      try {
        const search = await hub.call('registry.search', { query: 'hub-test-echo', sources: ['npm'] });
        expect(
          (search.structuredContent as { results: Array<{ package?: string }> }).results.map(entry => entry.package),
          JSON.stringify(search.structuredContent),
        ).toContain('hub-test-echo');
        const searched = proxied.connects.length;
        expect(searched).toBeGreaterThan(0);
        const result = await hub.call('registry.install', { package: 'hub-test-echo', start: false });
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(result.structuredContent).toMatchObject({ version: '1.0.0', state: 'stopped' });
        expect(proxied.connects.length).toBeGreaterThan(searched);
      } finally {
        await hub.close();
      }
      expect(new Set(proxied.connects)).toEqual(new Set([new URL(proxied.url).host]));
    } finally {
      await proxied.close();
    }
  }, 120_000);
});
