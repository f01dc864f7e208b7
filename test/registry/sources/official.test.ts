// The official registry client on its own: v0.1 entries mapped to npm candidates.
import { afterEach, describe, expect, test } from 'vitest';
import { silentLogger } from '../../../src/core/logger.js';
import { officialSearchTerm, searchOfficial } from '../../../src/registry/sources/official.js';
import { startRegistryServer, type RegistryServer } from '../../helpers/registry-server.js';

let registry: RegistryServer | undefined;
afterEach(async () => {
  await registry?.close();
  registry = undefined;
});

describe('official registry client', () => {
  test('reads every package and remote with its kind, npm ones with required env and fixed args; skips broken entries', async () => {
    registry = await startRegistryServer();
    const candidates = await searchOfficial({
      baseUrl: registry.registryUrl,
      query: 'memory',
      limit: 10,
      signal: AbortSignal.timeout(4_000),
      log: silentLogger,
    });
    expect(candidates.map(candidate => [candidate.kind, candidate.package])).toEqual([
      ['npm', '@modelcontextprotocol/server-memory'],
      ['npm', '@example/weather-mcp'],
      ['npm', 'notes-memory-mcp'],
      ['remote', 'https://memory.example.com/mcp'],
      ['pypi', 'memory-py-mcp'],
    ]);
    // Each kind says how registry.install takes it: npm by package, the others by registry name.
    expect(candidates[0]?.install).toEqual({ package: '@modelcontextprotocol/server-memory', name: 'memory' });
    expect(candidates[4]?.install).toMatchObject({ official: 'io.github.example/memory-py', kind: 'pypi' });
    expect(candidates[0]).toMatchObject({ source: 'official', title: 'Memory', version: '2026.8.31', requiredEnv: [] });
    expect(candidates[2]).toMatchObject({ title: 'notes-memory', version: '0.3.0' });
    expect(candidates[1]?.requiredEnv).toEqual([
      { name: 'WEATHER_API_KEY', description: 'API key of the weather service', secret: true },
    ]);
  });

  test('a query of several words is sent as its longest meaningful word', () => {
    expect(officialSearchTerm('memory')).toBe('memory');
    expect(officialSearchTerm(' brave-search ')).toBe('brave-search');
    expect(officialSearchTerm('postgres database')).toBe('postgres');
    expect(officialSearchTerm('web search')).toBe('search');
    expect(officialSearchTerm('github mcp server')).toBe('github');
  });

  test('a wrong-shaped answer is REGISTRY_BAD_RESPONSE naming the field', async () => {
    registry = await startRegistryServer();
    registry.setMode('official', 'wrong-shape');
    await expect(
      searchOfficial({
        baseUrl: registry.registryUrl,
        query: 'x',
        limit: 5,
        signal: AbortSignal.timeout(4_000),
        log: silentLogger,
      }),
    ).rejects.toMatchObject({
      code: 'REGISTRY_BAD_RESPONSE',
      message: expect.stringMatching(/at servers/),
    });
  });
});
