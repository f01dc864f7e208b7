// The real thing: @modelcontextprotocol/server-memory installed from the npm registry npm is
// configured with, by registry.install through the built hub over stdio. Runs with HUB_TEST_NPM=1.
import { join } from 'node:path';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, test, vi } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { stopSharedHubIn } from '../../helpers/shared-hub.js';
import { spawnHub, textOf } from '../../helpers/hub.js';
import { processesMentioning } from '../../helpers/install.js';
import { NPM_ONLINE, npmSkipped } from '../../helpers/npm-online.js';

// npm needs the machine's network settings (proxy, extra CA), as it has in a client's environment.
const NETWORK_ENV = Object.fromEntries(
  Object.entries(process.env).filter(
    (entry): entry is [string, string] =>
      entry[1] !== undefined && /proxy|cert|_ca_|ca_bundle|cainfo|^npm_config_/i.test(entry[0]),
  ),
);

test.skipIf(!NPM_ONLINE)(
  `installs server-memory from npm, calls it, and after a hub-mcp restart lists its tools with no child running until the next call${npmSkipped()}`,
  async () => {
    const home = await makeHubHome();
    const folder = join(home, 'servers', 'memory');
    const hub = await spawnHub(home, { env: NETWORK_ENV });
    try {
      let changes = 0;
      hub.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changes += 1;
      });
      const messages: string[] = [];
      const installed = (await hub.client.callTool(
        { name: 'registry.install', arguments: { package: '@modelcontextprotocol/server-memory' } },
        undefined,
        {
          onprogress: progress => messages.push(progress.message ?? ''),
          timeout: 240_000,
        },
      )) as CallToolResult;
      expect(installed.isError, textOf(installed)).toBeFalsy();
      expect(installed.structuredContent).toMatchObject({
        name: 'memory',
        package: '@modelcontextprotocol/server-memory',
        mode: 'npm',
        state: 'ready',
        missingEnv: [],
      });
      const version = (installed.structuredContent as { version: string }).version;
      expect(version).toMatch(/^\d+\.\d+\.\d+/);
      expect(messages[0]).toMatch(/^npm: resolving @modelcontextprotocol\/server-memory/);
      expect(messages).toContain(`installed @modelcontextprotocol/server-memory@${version}`);
      expect(messages).toContain('starting memory');
      expect(messages.at(-1)).toMatch(/^ready: \d+ tools$/);

      await vi.waitFor(() => expect(changes).toBeGreaterThan(0), { timeout: 10_000, interval: 50 });
      expect((await hub.client.listTools()).tools.map(tool => tool.name)).toEqual(
        expect.arrayContaining(['memory_read_graph', 'memory_create_entities']),
      );
      const created = await hub.call('memory.create_entities', {
        entities: [{ name: 'hub-test', entityType: 'test', observations: ['made by registry-memory.test'] }],
      });
      expect(created.isError, textOf(created)).toBeFalsy();
      expect(JSON.stringify((await hub.call('memory.read_graph')).content)).toContain('hub-test');
      expect(processesMentioning(folder).length).toBeGreaterThan(0);
    } finally {
      await hub.close();
    }
    // A restart of hub: the shared hub too (its children outlive an entry, for other sessions).
    await stopSharedHubIn(home);
    await vi.waitFor(() => expect(processesMentioning(folder)).toEqual([]), { timeout: 10_000, interval: 100 });

    const again = await spawnHub(home, { env: NETWORK_ENV });
    try {
      const names = (await again.client.listTools()).tools.map(tool => tool.name);
      expect(names).toContain('memory_read_graph');
      expect(processesMentioning(folder)).toEqual([]);
      const graph = await again.call('memory.read_graph');
      expect(graph.isError, textOf(graph)).toBeFalsy();
      expect(JSON.stringify(graph.content)).toContain('hub-test');
      expect(processesMentioning(folder).length).toBeGreaterThan(0);
    } finally {
      await again.close();
    }
    await stopSharedHubIn(home);
    await vi.waitFor(() => expect(processesMentioning(folder)).toEqual([]), { timeout: 10_000, interval: 100 });
  },
  300_000,
);
