// The published MCP App examples (ext-apps 2.0: basic-vanillajs, map, pdf, budget-allocator, each
// with --stdio) behind the built hub, next to the same servers connected directly: their views
// and _meta.ui reach a host intact, pdf's app-only tools are listed to no one, and a real host
// (ext-apps' AppBridge, with the App of the view on its other side) calls one for its app.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { App } from '@modelcontextprotocol/ext-apps';
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import { describe, expect, onTestFinished, test, vi } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { baseDottedName, underscoreName } from '../../../src/core/exposed-names.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome, makeScratchDir } from '../../helpers/home.js';
import { spawnHub, type HubSession } from '../../helpers/hub.js';
import { commandRecord, putRecords } from '../../proxy/harness.js';

const UI = 'io.modelcontextprotocol/ui';
const MIME = 'text/html;profile=mcp-app';
const APPS = { extensions: { [UI]: { mimeTypes: [MIME] } } };
const bin = (pkg: string) =>
  fileURLToPath(new URL(`../../../node_modules/@modelcontextprotocol/${pkg}/dist/index.js`, import.meta.url));
const EXAMPLES = {
  basic: 'server-basic-vanillajs',
  map: 'server-map',
  pdf: 'server-pdf',
  budget: 'server-budget-allocator',
} as const;
type Example = keyof typeof EXAMPLES;
const exposed = (server: string, tool: string) => underscoreName(baseDottedName(server, tool));
const PDF_APP_ONLY = ['read_pdf_bytes', 'submit_page_data', 'poll_pdf_commands'];

async function direct(example: Example, args: string[], apps: boolean): Promise<Client> {
  const client = new Client({ name: 'direct', version: '1.0.0' }, { capabilities: apps ? APPS : {} });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin(EXAMPLES[example]), '--stdio', ...args],
    stderr: 'ignore',
  });
  await client.connect(transport);
  onTestFinished(() => client.close());
  return client;
}

const uiTools = (tools: Tool[]) => tools.filter(tool => tool._meta?.ui !== undefined);
const uiOf = (tool: Tool) => (tool._meta?.ui ?? {}) as { resourceUri?: unknown; visibility?: string[] };

describe('the published MCP App examples through hub', () => {
  test('views and _meta.ui as directly, app-only tools to no one, an app-only call from a real host', async () => {
    const scratch = await makeScratchDir();
    const pdf = join(scratch, 'doc.pdf');
    const bytes = '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n';
    await writeFile(pdf, bytes);
    const argsOf = (example: Example) => (example === 'pdf' ? [pdf] : []);
    const home = await makeHubHome();
    const records = (Object.keys(EXAMPLES) as Example[]).map(example =>
      commandRecord(example, [bin(EXAMPLES[example]), '--stdio', ...argsOf(example)]),
    );
    await putRecords(openStore(loadConfig({ HUB_HOME: home }).paths), ...records);
    const host = await spawnHub(home, { capabilities: APPS, clientName: 'apps-host' });
    const plain: HubSession = await spawnHub(home, { clientName: 'plain-client' });
    for (const example of Object.keys(EXAMPLES)) await host.call('registry_list', { server: example });

    for (const example of Object.keys(EXAMPLES) as Example[]) {
      const alone = await direct(example, argsOf(example), true);
      const own = (await alone.listTools()).tools;
      // Without the extension the examples list the same tools: they do not check for it.
      const unasked = await direct(example, argsOf(example), false);
      expect(uiTools((await unasked.listTools()).tools).length).toBe(uiTools(own).length);
      const listed = await vi.waitFor(
        async () => {
          const tools = (await host.client.listTools()).tools.filter(tool => tool.name.startsWith(`${example}_`));
          expect(tools.length).toBeGreaterThan(0);
          return tools;
        },
        { timeout: 30_000 },
      );
      for (const tool of own) {
        const through = listed.find(entry => entry.name === exposed(example, tool.name));
        const { visibility, resourceUri: uri } = uiOf(tool);
        const appOnly = visibility !== undefined && !visibility.includes('model');
        if (appOnly) {
          expect(through, `${example} ${tool.name}`).toBeUndefined();
          continue;
        }
        // _meta.ui (the view's URI, visibility) as the server sent it.
        expect(through?._meta, `${example} ${tool.name}`).toEqual(tool._meta);
        if (typeof uri !== 'string') continue;
        // The view read through hub is the one read directly, its _meta (CSP, permissions) included.
        const view = await host.client.readResource({ uri });
        expect(view).toEqual(await alone.readResource({ uri }));
        expect(view.contents[0]?.mimeType).toBe(MIME);
      }
      // A session without the extension gets none of it.
      const plainTools = (await plain.client.listTools()).tools.filter(tool => tool.name.startsWith(`${example}_`));
      expect(plainTools.length).toBe(listed.length);
      expect(uiTools(plainTools)).toEqual([]);
    }
    const ownPdf = (await (await direct('pdf', [pdf], true)).listTools()).tools.map(tool => tool.name);
    expect(ownPdf).toEqual(expect.arrayContaining(PDF_APP_ONLY));
    const plainViews = (await plain.client.listResources()).resources.filter(item => item.uri.startsWith('ui://'));
    expect(plainViews).toEqual([]);

    // A real host: the view's App talks to the host's AppBridge, which passes its calls to hub.
    const bridge = new AppBridge(null, { name: 'test-host', version: '1.0.0' }, { serverTools: {} });
    bridge.oncalltool = params => host.client.callTool(params) as never;
    const [appSide, hostSide] = InMemoryTransport.createLinkedPair();
    await bridge.connect(hostSide);
    // No DOM here: the view's size is not watched.
    const app = new App({ name: 'pdf-view', version: '1.0.0' }, {}, { autoResize: false });
    await app.connect(appSide);
    onTestFinished(() => app.close());
    // read_pdf_bytes is app-only: no session lists it, and the app calls it by its own name.
    const read = await app.callServerTool({ name: 'read_pdf_bytes', arguments: { url: pdf } });
    expect(read.isError ?? false).toBe(false);
    const { bytes: base64 } = read.structuredContent as { bytes: string };
    expect(Buffer.from(base64, 'base64').toString('utf8')).toBe(bytes);
    await plain.close();
    await host.close();
  });
});
