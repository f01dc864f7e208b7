// `hub search` as a person runs it, against the fixture registry: once through the built bin
// (dist/server.js), the other cases through runCli in this process with the same variables.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { runCli } from '../../../src/cli/index.js';
import type { SearchOutput } from '../../../src/registry/sources/candidate.js';
import { makeHubHome } from '../../helpers/home.js';
import { SERVER_JS } from '../../helpers/hub.js';
import { startRegistryServer, type RegistryServer } from '../../helpers/registry-server.js';

let registry: RegistryServer | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await registry?.close();
  registry = undefined;
});

async function prepare(setup?: (registry: RegistryServer, home: string) => Promise<void> | void) {
  registry = await startRegistryServer();
  const home = await makeHubHome();
  await setup?.(registry, home);
  return { HUB_HOME: home, HUB_REGISTRY_URL: registry.registryUrl, HUB_NPM_REGISTRY: registry.npmRegistry };
}

async function hubSearch(args: string[], setup?: (registry: RegistryServer, home: string) => Promise<void> | void) {
  const env = await prepare(setup);
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  let stdout = '';
  let stderr = '';
  const exitCode = await runCli(['search', ...args], {
    out: text => void (stdout += text),
    err: text => void (stderr += text),
  });
  return { exitCode, stdout, stderr };
}

describe('hub-mcp search', () => {
  test('the bin prints a table of merged results', async () => {
    const env = await prepare();
    const run = await execa(process.execPath, [SERVER_JS, 'search', 'memory', '--limit', '4'], {
      env: { ...env, PATH: process.env.PATH ?? '/usr/bin:/bin' },
      extendEnv: false,
      reject: false,
      timeout: 20_000,
    });
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^NAME\s+PACKAGE\s+SOURCES\s+DESCRIPTION$/);
    expect(lines[1]).toMatch(
      /^memory\s+@modelcontextprotocol\/server-memory@2026\.8\.31\s+catalog,official,npm\s+Knowledge-graph/,
    );
    expect(lines.filter(line => /^\S+\s+\S+\s+(catalog|official|npm)/.test(line))).toHaveLength(4);
    expect(run.stdout).toContain('hub-mcp install <package>');
    expect(run.stdout).not.toContain('note:');
  });

  test('--json prints the same shape as the tool', async () => {
    const run = await hubSearch(['memory', '--json', '--source', 'official,npm']);
    expect(run.exitCode).toBe(0);
    const output = JSON.parse(run.stdout) as SearchOutput;
    expect(output.sources.map(source => source.source)).toEqual(['official', 'npm']);
    expect(output.results.map(result => result.package)).toContain('@example/weather-mcp');
  });

  test('a failed source is shown as a note, a slow one as a timeout, and the rest still print', async () => {
    const run = await hubSearch(['memory'], async (registry, home) => {
      registry.setMode('official', 'error500');
      registry.setMode('npmSearch', 'slow');
      await writeFile(join(home, 'config.json'), JSON.stringify({ searchTimeoutMs: 2_000 }));
    });
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^memory\s+@modelcontextprotocol\/server-memory\s+catalog/m);
    expect(run.stdout).toMatch(/note: official source failed: .*HTTP 500/);
    expect(run.stdout).toMatch(/note: npm source failed: timeout/);
  });

  test('an installed server is marked with a star', async () => {
    const run = await hubSearch(['memory', '--source', 'catalog'], async (_registry, home) => {
      const server = {
        name: 'memory',
        package: '@modelcontextprotocol/server-memory',
        command: 'node',
        args: [],
        env: {},
        mode: 'npm',
        installedAt: new Date().toISOString(),
        order: 0,
        tools: [],
      };
      await writeFile(
        join(home, 'db.json'),
        JSON.stringify({ version: 1, servers: { memory: server }, processes: {}, reservations: {} }),
      );
    });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^memory\*\s+@modelcontextprotocol\/server-memory/m);
    expect(run.stdout).toContain('* installed');
  });

  test('exits 1 when every source asked failed, and 2 on bad usage', async () => {
    const failed = await hubSearch(['memory', '--source', 'official'], registry =>
      registry.setMode('official', 'malformed'),
    );
    expect(failed.exitCode).toBe(1);
    expect(failed.stdout).toMatch(/No MCP servers found[\s\S]*note: official source failed: .*not JSON/);
    for (const args of [['--limit', 'lots', 'x'], [], ['x', '--source', 'pypi'], ['x', '--frobnicate']]) {
      let stderr = '';
      expect(await runCli(['search', ...args], { out: () => undefined, err: text => void (stderr += text) })).toBe(2);
      expect(stderr).toMatch(/Usage: hub-mcp search/);
    }
  });
});
