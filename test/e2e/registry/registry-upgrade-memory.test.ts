// The data-loss case from the issue, for real: server-memory from npm keeps its graph in
// HUB_HOME/data/memory, so upgrading it (and uninstall + install) keeps what it remembered.
// Two real npm installs (over a minute on a busy machine): runs with HUB_SOAK=1 and HUB_TEST_NPM=1.
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, test } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, textOf, type HubSession } from '../../helpers/hub.js';
import { NPM_ONLINE, npmSkipped } from '../../helpers/npm-online.js';

const NETWORK_ENV = Object.fromEntries(
  Object.entries(process.env).filter(
    (entry): entry is [string, string] =>
      entry[1] !== undefined && /proxy|cert|_ca_|ca_bundle|cainfo|^npm_config_/i.test(entry[0]),
  ),
);
const PACKAGE = '@modelcontextprotocol/server-memory';

const install = (hub: HubSession, args: Record<string, unknown>) =>
  hub.client.callTool({ name: 'registry.install', arguments: args }, undefined, {
    timeout: 240_000,
  }) as Promise<CallToolResult>;

test.skipIf(!NPM_ONLINE || process.env.HUB_SOAK !== '1')(
  `upgrading server-memory from npm keeps its graph in the data folder${npmSkipped()}`,
  async () => {
    const home = await makeHubHome();
    const hub = await spawnHub(home, { env: { ...NETWORK_ENV, HUB_TOOL_NAMES: 'dotted' } });
    try {
      const first = await install(hub, { package: `${PACKAGE}@2026.7.4` });
      expect(first.isError, textOf(first)).toBeFalsy();
      const created = await hub.call('registry.call', {
        server: 'memory',
        tool: 'create_entities',
        arguments: {
          entities: [{ name: 'kept-across-upgrade', entityType: 'test', observations: ['hub-mcp upgrade test'] }],
        },
      });
      expect(created.isError, textOf(created)).toBeFalsy();

      const upgraded = await install(hub, { package: `${PACKAGE}@latest`, upgrade: true });
      expect(upgraded.isError, textOf(upgraded)).toBeFalsy();
      expect((upgraded.structuredContent as { version: string }).version).not.toBe('2026.7.4');
      const graph = await hub.call('registry.call', { server: 'memory', tool: 'read_graph' });
      expect(JSON.stringify(graph)).toContain('kept-across-upgrade');
      expect(JSON.stringify(graph)).not.toContain(join(home, 'servers'));
    } finally {
      await hub.close();
    }
  },
  300_000,
);
