// registry.search's engine against a real HTTP fixture registry on 127.0.0.1: three sources
// merged and ranked, and each failure mode (500, too slow, malformed) confined to its source.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { silentLogger } from '../../../src/core/logger.js';
import { createSearch } from '../../../src/registry/search/search.js';
import type { SearchOutput, SearchSource } from '../../../src/registry/sources/candidate.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { startRegistryServer, type RegistryServer } from '../../helpers/registry-server.js';

let registry: RegistryServer | undefined;
afterEach(async () => {
  await registry?.close();
  registry = undefined;
});

async function setup(searchTimeoutMs = 4_000) {
  registry = await startRegistryServer();
  const home = await makeHubHome();
  const base = loadConfig({
    HUB_HOME: home,
    HUB_REGISTRY_URL: registry.registryUrl,
    HUB_NPM_REGISTRY: registry.npmRegistry,
  });
  const config = { ...base, searchTimeoutMs };
  const store = openStore(config.paths);
  return { registry, store, search: createSearch({ config, log: silentLogger, store }).search };
}

const report = (output: SearchOutput, source: SearchSource) => output.sources.find(entry => entry.source === source);
const packages = (output: SearchOutput) => output.results.map(result => result.package);

describe('registry search', () => {
  test('merges catalog, official and npm into one de-duplicated, ranked list', async () => {
    const { search } = await setup();
    const output = await search({ query: 'memory', limit: 20 });

    expect(output.sources.map(entry => [entry.source, entry.ok])).toEqual([
      ['catalog', true],
      ['official', true],
      ['npm', true],
    ]);
    expect(new Set(packages(output)).size).toBe(output.results.length);
    const [first] = output.results;
    expect(first).toMatchObject({
      name: 'memory',
      title: 'Memory',
      package: '@modelcontextprotocol/server-memory',
      version: '2026.8.31',
      source: 'catalog',
      sources: ['catalog', 'official', 'npm'],
      installed: false,
      requiredEnv: [],
    });
    // official + npm: one result, npm's fresher version, the registry's description.
    expect(output.results.find(result => result.package === 'notes-memory-mcp')).toMatchObject({
      name: 'notes-memory',
      source: 'official',
      sources: ['official', 'npm'],
      version: '0.3.1',
      description: 'Notes as long-term memory',
    });
    // official only: required env and fixed args from server.json; optional env left out.
    expect(output.results.find(result => result.package === '@example/weather-mcp')).toMatchObject({
      name: 'weather',
      title: 'Weather with memory',
      requiredEnv: [{ name: 'WEATHER_API_KEY', description: 'API key of the weather service', secret: true }],
      args: ['--units', 'metric'],
      argsHint: 'required: city (Home city)',
    });
    // Remote and pypi entries are offered with their kind and how to install them.
    expect(output.results.find(result => result.package === 'memory-py-mcp')).toMatchObject({
      kind: 'pypi',
      install: { official: 'io.github.example/memory-py', kind: 'pypi' },
    });
    expect(output.results.find(result => result.package === 'https://memory.example.com/mcp')).toMatchObject({
      kind: 'remote',
      runnable: true,
    });
    expect(output.results.every(result => result.package.length > 0)).toBe(true);
  });

  test('asks the official registry with v0.1 search, version=latest and limit, and npm with its search API', async () => {
    const { search, registry } = await setup();
    await search({ query: 'memory', limit: 7 });
    expect(registry.requests).toContain('/v0.1/servers?search=memory&version=latest&limit=14');
    expect(registry.requests.find(request => request.startsWith('/npm/-/v1/search?'))).toBe(
      '/npm/-/v1/search?text=memory+mcp&size=20',
    );
    expect(registry.requests).toContain('/npm/@someone%2fmemory-sdk-server/latest');
  });

  test('npm results are only MCP servers: an mcpName or an SDK dependency, and a bin', async () => {
    const { search } = await setup();
    const output = await search({ query: 'memory', sources: ['npm'], limit: 20 });
    expect(packages(output).sort()).toEqual([
      '@modelcontextprotocol/server-memory',
      '@someone/memory-sdk-server',
      'memory-mcp-lite',
      'notes-memory-mcp',
    ]);
    expect(report(output, 'npm')).toMatchObject({ ok: true, count: 4 });
    expect(output.sources.map(entry => entry.source)).toEqual(['npm']);
  });

  test('ranking is deterministic: an exact package match first, then trusted sources', async () => {
    const { search } = await setup();
    const once = await search({ query: 'memory', limit: 20 });
    const again = await search({ query: 'memory', limit: 20 });
    expect(packages(again)).toEqual(packages(once));
    // Catalog and official entries outrank npm-only ones of equal relevance.
    const order = packages(once);
    expect(order.indexOf('notes-memory-mcp')).toBeLessThan(order.indexOf('memory-mcp-lite'));

    const exact = await search({ query: 'memory-mcp-lite', limit: 5 });
    expect(exact.results[0]?.package).toBe('memory-mcp-lite');
    const limited = await search({ query: 'memory', limit: 2 });
    expect(packages(limited)).toHaveLength(2);
    expect(limited.results[0]?.package).toBe('@modelcontextprotocol/server-memory');
  });

  test('an official registry answering 500 is reported for that source while the others answer', async () => {
    const { search, registry } = await setup();
    registry.setMode('official', 'error500');
    const output = await search({ query: 'memory', limit: 20 });
    expect(report(output, 'official')).toMatchObject({ ok: false, count: 0, code: 'REGISTRY_UNAVAILABLE' });
    expect(report(output, 'official')?.error).toMatch(/HTTP 500/);
    expect(report(output, 'catalog')).toMatchObject({ ok: true });
    expect(report(output, 'npm')).toMatchObject({ ok: true, count: 4 });
    expect(packages(output)).toContain('notes-memory-mcp');
    expect(packages(output)).not.toContain('@example/weather-mcp');
  });

  test('a source slower than its timeout fails with REGISTRY_TIMEOUT alone', async () => {
    const { search, registry } = await setup(2_000);
    registry.setMode('official', 'slow');
    const output = await search({ query: 'memory', limit: 20 });
    expect(report(output, 'official')).toMatchObject({ ok: false, code: 'REGISTRY_TIMEOUT' });
    expect(report(output, 'official')?.error).toMatch(/^timeout/);
    expect(report(output, 'npm')).toMatchObject({ ok: true });
    expect(report(output, 'catalog')).toMatchObject({ ok: true });
    expect(output.results[0]?.sources).toEqual(['catalog', 'npm']);
  });

  test('npm manifests that never arrive time out the npm source only', async () => {
    const { search, registry } = await setup(2_000);
    registry.setMode('npmManifest', 'slow');
    const output = await search({ query: 'memory', limit: 20 });
    expect(report(output, 'npm')).toMatchObject({ ok: false, code: 'REGISTRY_TIMEOUT' });
    expect(report(output, 'official')).toMatchObject({ ok: true });
    expect(packages(output)).toContain('@example/weather-mcp');
  });

  test('a malformed body is REGISTRY_BAD_RESPONSE for that source', async () => {
    const { search, registry } = await setup();
    registry.setMode('official', 'malformed');
    registry.setMode('npmSearch', 'wrong-shape');
    const output = await search({ query: 'memory', limit: 20 });
    expect(report(output, 'official')).toMatchObject({ ok: false, code: 'REGISTRY_BAD_RESPONSE' });
    expect(report(output, 'official')?.error).toMatch(/not JSON/);
    expect(report(output, 'npm')).toMatchObject({ ok: false, code: 'REGISTRY_BAD_RESPONSE' });
    expect(report(output, 'npm')?.error).toMatch(/objects/);
    expect(packages(output)).toEqual(['@modelcontextprotocol/server-memory']);
  });

  test('with both registries down, the bundled catalog still answers', async () => {
    const { search, registry } = await setup();
    await registry.close();
    const output = await search({ query: 'github', limit: 5 });
    expect(output.results[0]).toMatchObject({
      name: 'github',
      package: '@modelcontextprotocol/server-github',
      source: 'catalog',
    });
    expect(output.results[0]?.requiredEnv.map(variable => variable.name)).toEqual(['GITHUB_PERSONAL_ACCESS_TOKEN']);
    expect(report(output, 'official')).toMatchObject({ ok: false, code: 'REGISTRY_UNAVAILABLE' });
    expect(report(output, 'npm')).toMatchObject({ ok: false, code: 'REGISTRY_UNAVAILABLE' });
  });

  test('installed is true for a package an installed server uses', async () => {
    const { search, store } = await setup();
    await store.update(data => {
      data.servers.memory = {
        name: 'memory',
        package: '@modelcontextprotocol/server-memory',
        version: '2026.8.31',
        command: process.execPath,
        args: [],
        env: {},
        mode: 'npm',
        installedAt: new Date().toISOString(),
        order: 0,
        autoStart: false,
        tools: [],
      };
    });
    const output = await search({ query: 'memory', limit: 20 });
    expect(output.results.find(result => result.package === '@modelcontextprotocol/server-memory')?.installed).toBe(
      true,
    );
    expect(output.results.filter(result => result.installed)).toHaveLength(1);
  });

  test('a search the caller cancelled is CANCELLED, not a list of failed sources', async () => {
    const { search, registry } = await setup();
    registry.setMode('official', 'slow');
    const controller = new AbortController();
    const pending = search({ query: 'memory', signal: controller.signal });
    await vi.waitFor(() => expect(registry.requests.some(request => request.startsWith('/v0.1/servers'))).toBe(true), {
      timeout: 10_000,
      interval: 50,
    });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'CANCELLED' });
  });

  test('sources limits which sources are asked', async () => {
    const { search, registry } = await setup();
    const output = await search({ query: 'memory', sources: ['catalog'] });
    expect(output.sources.map(entry => entry.source)).toEqual(['catalog']);
    expect(registry.requests).toEqual([]);
  });
});
