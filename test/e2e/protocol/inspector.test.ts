// The official MCP Inspector in CLI mode (`npx @modelcontextprotocol/inspector --cli node
// dist/server.js --method tools/list`) against the built hub. The inspector is a devDependency
// pinned to a version that runs on Node 20; until it is installed the test is skipped.
import { describe, expect, test } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { INSPECTOR_BIN, inspect } from '../../helpers/inspector.js';
import { fixture } from '../../helpers/hub.js';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { writeToolCache } from '../../../src/store/tool-cache.js';
import { commandRecord, putRecords } from '../../proxy/harness.js';

const HUB_TOOLS = [
  'registry_search',
  'registry_install',
  'registry_list',
  'registry_uninstall',
  'registry_call',
  'registry_configure',
  'start_process',
  'list_processes',
  'get_process_logs',
  'kill_process',
  'get_free_port',
];

const bin = INSPECTOR_BIN;

const SKIPPED = ' (skipped: @modelcontextprotocol/inspector is not installed; add it as a devDependency)';

(bin === undefined ? describe.skip : describe)(`MCP Inspector CLI${bin === undefined ? SKIPPED : ''}`, () => {
  test('lists every hub tool with its schemas', async () => {
    const home = await makeHubHome();
    const listed = (await inspect(home, ['--method', 'tools/list'])) as {
      tools: { name: string; inputSchema: object; outputSchema?: object }[];
    };
    const names = listed.tools.map(tool => tool.name);
    expect(names).toEqual(expect.arrayContaining(HUB_TOOLS));
    for (const tool of listed.tools.filter(entry => HUB_TOOLS.includes(entry.name))) {
      expect(tool.inputSchema).toMatchObject({ type: 'object' });
      // registry_call returns the child's result as the child shaped it: no schema of its own.
      if (tool.name === 'registry_call') expect(tool.outputSchema).toBeUndefined();
      else expect(tool.outputSchema).toMatchObject({ type: 'object' });
    }
  }, 90_000);

  test('calls a hub tool and gets structuredContent', async () => {
    const home = await makeHubHome();
    const result = (await inspect(home, ['--method', 'tools/call', '--tool-name', 'get_free_port'])) as {
      isError?: boolean;
      structuredContent: { port: number };
    };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.port).toBeGreaterThan(0);
  }, 90_000);

  test('passes preferred=<port> to get_free_port (plain types the CLI can convert)', async () => {
    const home = await makeHubHome();
    const args = [
      '--method',
      'tools/call',
      '--tool-name',
      'get_free_port',
      '--tool-arg',
      'preferred=5173',
      'host=127.0.0.1',
    ];
    const result = (await inspect(home, args)) as {
      isError?: boolean;
      content: { text: string }[];
      structuredContent?: { port: number };
    };
    expect(result.isError, result.content[0]?.text).toBeFalsy();
    expect(result.structuredContent?.port).toBeGreaterThan(0);
  }, 90_000);

  test('prompts/list, resources/list and resources/read of an installed server through hub', async () => {
    const home = await makeHubHome();
    const paths = loadConfig({ HUB_HOME: home }).paths;
    const store = openStore(paths);
    const stamp = '2026-03-04T00:00:00.000Z';
    // Cached as a first start leaves it: listed without starting the child, read from it.
    await putRecords(store, commandRecord('bulk', [fixture('surface-server.mjs')], { toolsUpdatedAt: stamp }));
    const surface = {
      prompts: [{ name: 'review', arguments: [{ name: 'file', required: true }] }],
      resources: [{ uri: 'bulk://item/7', name: 'item-7', mimeType: 'text/plain' }],
      resourceTemplates: [{ uriTemplate: 'bulk://item/{id}', name: 'item' }],
    };
    await store.update(() => writeToolCache(paths, 'bulk', [], stamp, [], surface));

    const prompts = (await inspect(home, ['--method', 'prompts/list'])) as { prompts: { name: string }[] };
    expect(prompts.prompts.map(prompt => prompt.name)).toEqual(['bulk_review']);
    const resources = (await inspect(home, ['--method', 'resources/list'])) as { resources: { uri: string }[] };
    // The server's resource, then hub's own.
    expect(resources.resources.map(resource => resource.uri)).toEqual([
      'bulk://item/7',
      'hub://processes',
      'hub://servers',
    ]);
    const read = (await inspect(home, ['--method', 'resources/read', '--uri', 'bulk://item/7'])) as {
      contents: { text: string }[];
    };
    expect(read.contents[0]?.text).toBe('contents of bulk://item/7');
  }, 90_000);
});
