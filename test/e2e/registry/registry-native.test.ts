// A published server with a native module (mcp-server-sqlite-npx → sqlite3) from the real npm
// registry: without allowScripts it fails to start with the package and the call that fixes it;
// with allowScripts: ["sqlite3"] it starts and answers. Uses the network; sqlite3's build can take
// minutes when its prebuilt binary cannot be downloaded (it then compiles from source), so it runs
// only with HUB_NATIVE_TESTS=1 and HUB_TEST_NPM=1. The offline stand-in is in
// npm-corporate.test.ts ("install scripts").
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { spawnHub, textOf, type HubSession } from '../../helpers/hub.js';
import { NPM_ONLINE, npmSkipped } from '../../helpers/npm-online.js';

// npm and sqlite3's build take minutes here: longer than the SDK's 60 s request timeout.
const call = async (hub: HubSession, name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
  (await hub.client.callTool({ name, arguments: args }, undefined, { timeout: 15 * 60_000 })) as CallToolResult;

test.skipIf(!NPM_ONLINE || process.env.HUB_NATIVE_TESTS !== '1')(
  `mcp-server-sqlite-npx: a clear native-module error without allowScripts, a working server with it${npmSkipped()}`,
  async () => {
    const home = await makeHubHome();
    // Long npm steps here are expected: wait for them instead of going to the background.
    await writeFile(join(home, 'config.json'), JSON.stringify({ install: { foregroundMs: 600_000 } }));
    const hub = await spawnHub(home, { env: { HUB_TOOL_NAMES: 'dotted' } });
    try {
      const database = join(home, 'test.sqlite');
      const failed = await call(hub, 'registry.install', { package: 'mcp-server-sqlite-npx', args: [database] });
      expect(failed.isError).toBe(true);
      expect(textOf(failed)).toMatch(/sqlite3 must run its install scripts/);
      expect(textOf(failed)).toContain(
        'registry.install { package: "mcp-server-sqlite-npx", name: "sqlite", allowScripts: ["sqlite3"] }',
      );

      const fixed = await call(hub, 'registry.install', {
        package: 'mcp-server-sqlite-npx',
        name: 'sqlite',
        allowScripts: ['sqlite3'],
      });
      expect(fixed.isError, textOf(fixed)).toBeFalsy();
      expect(fixed.structuredContent).toMatchObject({ name: 'sqlite', state: 'ready' });
      expect((fixed.structuredContent as { tools: string[] }).tools).toContain('sqlite.list_tables');
      const tables = await hub.call('sqlite.list_tables', {});
      expect(tables.isError, textOf(tables)).toBeFalsy();
    } finally {
      await hub.close();
    }
  },
  20 * 60_000,
);
