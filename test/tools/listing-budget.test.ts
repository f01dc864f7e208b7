// Issue 14, item 6: the byte goals of tools/list, kept by a test because they are sizes, not
// times: hub's own tools (names, titles, descriptions, input schemas; tools.search included) stay
// under 12 KB, and what search mode adds beyond them stays under 4 KB whatever the number of
// servers. A new tool or a longer description that breaks them fails here, not only in the bench.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { expect, test } from 'vitest';
import { loadConfig } from '../../src/core/config/config.js';
import { openStore } from '../../src/store/store.js';
import { makeHubHome } from '../helpers/home.js';
import { startHubInProcess } from '../helpers/hub.js';
import { toolListRecords, toolLists } from '../helpers/tool-lists.js';
import { putRecords } from '../proxy/harness.js';

const OWN_BUDGET = 12 * 1024;
const SEARCH_BUDGET = 4 * 1024;

const bytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));
const core = (tools: Tool[]) =>
  tools.map(({ name, title, description, inputSchema }) => ({ name, title, description, inputSchema }));

/** tools/list of an in-process hub on a home with the 15 real lists installed `copies` times. */
async function listing(copies: number, env: Record<string, string> = {}): Promise<Tool[]> {
  const home = await makeHubHome();
  const lists = toolLists();
  const records = Array.from({ length: copies }, (_, copy) =>
    toolListRecords(lists).map(record => ({
      ...record,
      name: copy === 0 ? record.name : `${record.name}-${copy}`,
      order: copy * 100 + record.order,
    })),
  ).flat();
  await putRecords(openStore(loadConfig({ HUB_HOME: home }).paths), ...records);
  const hub = await startHubInProcess(home, { clientName: 'some-agent', env });
  try {
    return (await hub.client.listTools()).tools;
  } finally {
    await hub.close();
  }
}

test("hub's own tools with tools.search stay under 12 KB; search mode adds under 4 KB with 15 or 60 servers", async () => {
  const own = await listing(0);
  expect(own.map(tool => tool.name)).not.toContain('tools_search');
  const ownBytes = bytesOf({ tools: own });
  for (const copies of [1, 4]) {
    const search = await listing(copies, { HUB_EXPOSURE: 'search' });
    const searchTool = search.find(tool => tool.name === 'tools_search');
    if (!searchTool) throw new Error(`tools_search is not listed with ${copies * 15} servers in search mode`);
    expect(search).toHaveLength(own.length + 1);
    // Its description names the installed servers, bounded.
    expect(searchTool.description).toMatch(/Installed: brave-search \(2 tools/);
    const added = bytesOf({ tools: search }) - ownBytes;
    expect(added, `search mode adds ${added} bytes with ${copies * 15} servers`).toBeLessThan(SEARCH_BUDGET);
    if (copies === 1) {
      // tools.search as hub defines it, without the list of installed servers.
      const base = { ...searchTool, description: (searchTool.description ?? '').replace(/ Installed: .*$/s, '') };
      const total = bytesOf(core([...own, base]));
      expect(total, `hub's own tools are ${total} bytes`).toBeLessThan(OWN_BUDGET);
    }
  }
});
