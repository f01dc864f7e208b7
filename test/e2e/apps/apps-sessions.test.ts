// MCP Apps (io.modelcontextprotocol/ui) through the built hub: the extension offered to children
// once a session asks for it, each session shown what it supports (app-only tools to none, app
// views and metadata only to sessions with the extension), two servers' same ui:// URI both
// readable, a malformed _meta.ui or extension declaration warned of and the same for everyone.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test, vi } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { baseDottedName, underscoreName } from '../../../src/core/exposed-names.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { fixture, spawnHub, textOf, type HubSession } from '../../helpers/hub.js';
import { commandRecord, putRecords } from '../../proxy/harness.js';

const UI = 'io.modelcontextprotocol/ui';
const MIME = 'text/html;profile=mcp-app';
const APPS = { extensions: { [UI]: { mimeTypes: [MIME] } } };
const name = (server: string, tool: string) => underscoreName(baseDottedName(server, tool));
const byName = (tools: Tool[], wanted: string) => tools.find(tool => tool.name === wanted);

// registry_list { server } starts a server; its tools are listed once it answered.
async function started(session: HubSession, ...servers: string[]): Promise<void> {
  for (const server of servers) await session.call('registry_list', { server });
  await vi.waitFor(
    async () => {
      const tools = (await session.client.listTools()).tools;
      for (const server of servers) expect(byName(tools, name(server, 'show-view'))).toBeDefined();
    },
    { timeout: 20_000 },
  );
}

async function appHome(extra: Record<string, Record<string, string>> = {}): Promise<string> {
  const home = await makeHubHome();
  const server = (id: string) =>
    commandRecord(id, [fixture('app-server.mjs')], { env: { APP_NAME: id, ...extra[id] } });
  await putRecords(openStore(loadConfig({ HUB_HOME: home }).paths), server('alpha'), server('beta'));
  return home;
}

describe('MCP Apps through hub', () => {
  test('offered to children once a session asks; each session sees what it supports', async () => {
    const home = await appHome();
    const apps = await spawnHub(home, { capabilities: APPS, clientName: 'apps-host' });
    const plain = await spawnHub(home, { clientName: 'plain-client' });
    await started(apps, 'alpha', 'beta');

    // The child was offered the extension with hub's own mime types, so it serves its view.
    expect(JSON.parse(textOf(await apps.call(name('alpha', 'offered'))))).toEqual({ [UI]: { mimeTypes: [MIME] } });
    const appsTools = (await apps.client.listTools()).tools;
    const plainTools = (await plain.client.listTools()).tools;

    // App-only tools are listed to no session; the view's tool keeps _meta.ui only where apps are taken.
    for (const tools of [appsTools, plainTools]) {
      expect(byName(tools, name('alpha', 'app-refresh'))).toBeUndefined();
      expect(byName(tools, name('beta', 'app-refresh'))).toBeUndefined();
    }
    expect(byName(appsTools, name('alpha', 'show-view'))?._meta).toEqual({
      ui: { resourceUri: 'ui://shared/view.html', visibility: ['model', 'app'] },
    });
    // The second server's same URI is renamed wherever hub shows it.
    expect(byName(appsTools, name('beta', 'show-view'))?._meta).toEqual({
      ui: { resourceUri: 'ui://beta/shared/view.html', visibility: ['model', 'app'] },
    });
    expect(byName(plainTools, name('alpha', 'show-view'))).toBeDefined();
    expect(byName(plainTools, name('alpha', 'show-view'))?._meta).toBeUndefined();

    // Both views listed and read from their own server, CSP and permissions intact.
    const uris = (await apps.client.listResources()).resources.map(resource => resource.uri);
    expect(uris).toEqual(expect.arrayContaining(['ui://shared/view.html', 'ui://beta/shared/view.html']));
    const alpha = await apps.client.readResource({ uri: 'ui://shared/view.html' });
    const beta = await apps.client.readResource({ uri: 'ui://beta/shared/view.html' });
    expect(alpha.contents[0]).toMatchObject({
      uri: 'ui://shared/view.html',
      text: '<html>alpha</html>',
      mimeType: MIME,
    });
    expect(beta.contents[0]).toMatchObject({ uri: 'ui://beta/shared/view.html', text: '<html>beta</html>' });
    expect(beta.contents[0]?._meta).toEqual({
      ui: {
        csp: { connectDomains: ['https://api.example.com'] },
        permissions: { clipboardWrite: {} },
        prefersBorder: true,
      },
    });
    // A session without the extension is listed no views.
    const plainUris = (await plain.client.listResources()).resources.map(resource => resource.uri);
    expect(plainUris.filter(uri => uri.startsWith('ui://'))).toEqual([]);

    // An app calls its server's tools by their own names through its host: hub's name always
    // works, the own name when one server's apps have it, and an ambiguous one is refused clearly.
    expect(textOf(await apps.call(name('beta', 'app-refresh')))).toBe('app-refresh from beta');
    await expect(apps.call('app-refresh')).rejects.toThrow(/ambiguous.*"alpha" and "beta"/);
    await expect(plain.call('app-refresh')).rejects.toThrow(/Unknown tool/);

    await plain.close();
    await apps.close();
  });

  test('a malformed _meta.ui or extension declaration is warned of and changes nothing for others', async () => {
    const home = await appHome({ beta: { APP_BAD_META: '1', APP_DECLARE: JSON.stringify({ [UI]: 'yes' }) } });
    const apps = await spawnHub(home, { capabilities: APPS });
    const plain = await spawnHub(home);
    await started(apps, 'alpha', 'beta');
    // beta started despite its wrong declaration; its broken tool is listed plain, the same to both.
    expect(textOf(await apps.call(name('beta', 'show-view')))).toBe('show-view from beta');
    const broken = [apps, plain].map(async session =>
      byName((await session.client.listTools()).tools, name('beta', 'broken-view')),
    );
    const [toApps, toPlain] = await Promise.all(broken);
    expect(toApps).toBeDefined();
    expect(toApps?._meta).toBeUndefined();
    expect(toPlain).toEqual(toApps);
    const listed = textOf(await apps.call('registry_list', { server: 'beta' }));
    expect(listed).toMatch(
      /_meta\.ui\.resourceUri must be a ui:\/\/ URI, not "https:\/\/x"; the tool is listed without/,
    );
    // The wrong declaration is named in the server's log, the child started all the same.
    const log = await readFile(join(home, 'logs', 'servers', 'beta.log'), 'utf8');
    expect(log).toContain(`capabilities.extensions["${UI}"] must be an object (its settings, {} for none), not "yes"`);
    await plain.close();
    await apps.close();
  });

  test('a child started before any session asked is not offered it; one started after is', async () => {
    const home = await appHome();
    const plain = await spawnHub(home, { clientName: 'plain-client' });
    await plain.call('registry_list', { server: 'alpha' });
    expect(textOf(await plain.call(name('alpha', 'offered')))).toBe('null');
    const apps = await spawnHub(home, { capabilities: APPS, clientName: 'apps-host' });
    // alpha keeps running as it was started (no restart under the other session's feet) ...
    expect(textOf(await apps.call(name('alpha', 'offered')))).toBe('null');
    // ... and every child started from now on is offered it, whichever session starts it.
    await plain.call('registry_list', { server: 'beta' });
    expect(JSON.parse(textOf(await plain.call(name('beta', 'offered'))))).toEqual({ [UI]: { mimeTypes: [MIME] } });
    await apps.close();
    await plain.close();
  });
});
