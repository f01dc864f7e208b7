// registry.search as a client sees it: a real SDK Server (with hub's tool table) and a real
// Client over a linked in-memory pair, the fixture registry behind it. The client validates
// structuredContent against the listed outputSchema.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { silentLogger } from '../../../src/core/logger.js';
import type { SearchOutput } from '../../../src/registry/sources/candidate.js';
import { sdkClientSide } from '../../../src/proxy/sessions/sdk-client-side.js';
import { openStore } from '../../../src/store/store.js';
import { createSearchTool } from '../../../src/tools/registry-search.js';
import { createToolTable } from '../../../src/tools/table.js';
import { makeHubHome } from '../../helpers/home.js';
import { startHubInProcess, textOf } from '../../helpers/hub.js';
import { startRegistryServer, type RegistryServer } from '../../helpers/registry-server.js';

let registry: RegistryServer | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await registry?.close();
  client = registry = undefined;
});

async function connect() {
  registry = await startRegistryServer();
  const home = await makeHubHome();
  const config = loadConfig({
    HUB_HOME: home,
    HUB_REGISTRY_URL: registry.registryUrl,
    HUB_NPM_REGISTRY: registry.npmRegistry,
  });
  const server = new Server({ name: 'hub-search-test', version: '1.0.0' }, { capabilities: { tools: {} } });
  const tool = createSearchTool({
    config,
    log: silentLogger,
    store: openStore(config.paths),
    server,
    client: sdkClientSide(server),
  });
  const table = createToolTable([tool], {
    log: silentLogger,
    resultCapBytes: config.resultCapBytes,
    mode: 'dotted',
    spelling: () => new Map(),
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: table.list() }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    table.call(tool, request.params.arguments, extra),
  );
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  client = new Client({ name: 'search-test', version: '1.0.0' });
  await client.connect(clientTransport);
  return { client, registry };
}

describe('registry.search tool', () => {
  test('is listed read-only and open-world, with an output schema', async () => {
    const { client } = await connect();
    const [tool] = (await client.listTools()).tools;
    expect(tool).toMatchObject({ name: 'registry.search', annotations: { readOnlyHint: true, openWorldHint: true } });
    expect(tool?.outputSchema?.properties).toHaveProperty('results');
    expect(tool?.inputSchema.properties).toHaveProperty('sources');
  });

  test('returns merged results as structuredContent and one line per result with an install hint', async () => {
    const { client } = await connect();
    const result = (await client.callTool({
      name: 'registry.search',
      arguments: { query: 'memory', limit: 3 },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const output = result.structuredContent as SearchOutput;
    expect(output.results).toHaveLength(3);
    expect(output.results[0]).toMatchObject({ name: 'memory', sources: ['catalog', 'official', 'npm'] });
    const lines = textOf(result).split('\n');
    expect(lines[0]).toBe('3 MCP server(s):');
    expect(lines[1]).toContain(
      'install: registry.install { package: "@modelcontextprotocol/server-memory", name: "memory" }',
    );
    expect(lines).toHaveLength(4);
  });

  test('a failing source is a note in the text and an entry in sources[], not an error', async () => {
    const { client, registry } = await connect();
    registry.setMode('official', 'error500');
    const result = (await client.callTool({
      name: 'registry.search',
      arguments: { query: 'weather', sources: ['official', 'catalog'] },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as SearchOutput).sources).toEqual([
      expect.objectContaining({ source: 'catalog', ok: true }),
      expect.objectContaining({ source: 'official', ok: false, code: 'REGISTRY_UNAVAILABLE' }),
    ]);
    expect(textOf(result)).toMatch(/note: official failed: .*HTTP 500/);
  });

  test('bad input is an INVALID_INPUT error naming the field, with no structuredContent', async () => {
    const { client } = await connect();
    for (const args of [
      { query: 'x', limit: 500 },
      { query: 'x', sources: ['pypi'] },
      { query: '  ' },
      { query: 'x', extra: 1 },
    ]) {
      const result = (await client.callTool({ name: 'registry.search', arguments: args })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(textOf(result)).toMatch(/^INVALID_INPUT: .*(limit|sources|query|extra)/);
    }
  });

  test('the hub lists it and answers both spellings', async () => {
    registry = await startRegistryServer();
    const home = await makeHubHome();
    const hub = await startHubInProcess(home, {
      env: { HUB_REGISTRY_URL: registry.registryUrl, HUB_NPM_REGISTRY: registry.npmRegistry },
    });
    try {
      expect((await hub.client.listTools()).tools.map(tool => tool.name)).toContain('registry_search');
      for (const name of ['registry.search', 'registry_search']) {
        const result = await hub.call(name, { query: 'weather' });
        expect(result.isError).toBeFalsy();
        expect((result.structuredContent as SearchOutput).results.map(entry => entry.package)).toContain(
          '@example/weather-mcp',
        );
      }
    } finally {
      await hub.close();
    }
  });
});
