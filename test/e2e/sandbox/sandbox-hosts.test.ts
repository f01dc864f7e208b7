// Issue 29 item 3, named hosts, end to end through the built hub with the real sandbox: a server
// whose network is a list reaches those hosts through hub's proxy (HTTP_PROXY) and nothing else;
// a host not on its list is refused by the proxy with a clear error, logged in the server's log;
// without the proxy it has no interface but its loopback. Narrowing to a list needs no one;
// adding a host asks the person.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { localService } from '../../helpers/local-service.js';
import { fixture, spawnHub, textOf } from '../../helpers/hub.js';
import { commandRecord, putRecords } from '../../proxy/harness.js';

const ESCAPE = fixture('sandbox-escape.mjs');

test('a server reaches the hosts on its list through the proxy and nothing else; a refusal is logged', async () => {
  const hubHome = await makeHubHome();
  const { port } = await localService();
  const url = `http://localhost:${port}/`;
  await putRecords(
    openStore(loadConfig({ HUB_HOME: hubHome }).paths),
    commandRecord('named', [ESCAPE], { settings: { sandbox: { network: ['localhost'] } } }),
    commandRecord('strict', [ESCAPE], { settings: { sandbox: { network: ['api.example.com'] } } }),
  );
  const hub = await spawnHub(hubHome);
  try {
    const net = async (server: string, proxied: boolean) =>
      JSON.parse(textOf(await hub.call('registry_call', { server, tool: 'net', arguments: { url, proxied } }))) as {
        ok: boolean;
        got?: string;
        error?: string;
        interfaces: string[];
      };

    // Its list names localhost: through the proxy it gets there; on its own it has no way out.
    expect(await net('named', true)).toEqual({ ok: true, got: 'reachable', interfaces: ['lo'] });
    expect(await net('named', false)).toMatchObject({ ok: false, interfaces: ['lo'] });
    expect(readFileSync(join(hubHome, 'logs/servers/named.log'), 'utf8')).toContain(
      'network only localhost (through hub',
    );

    // A host not on its list: refused by the proxy, with why, in the reply and in its log.
    const refused = await net('strict', true);
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatch(/^403 hub sandbox: localhost:\d+ refused: not in its network allow-list/);
    expect(readFileSync(join(hubHome, 'logs/servers/strict.log'), 'utf8')).toContain(
      `sandbox: network refused localhost:${port}: not in its network allow-list (api.example.com)`,
    );

    // Narrowing the default to a list needs no one; adding a host asks the person.
    const narrowed = await hub.call('registry_configure', {
      server: 'strict',
      sandbox: { network: ['api.example.com', 'localhost'] },
    });
    expect(textOf(narrowed)).toMatch(/^CONSENT_UNAVAILABLE: Nothing changed/);
    expect(textOf(narrowed)).toContain('let it reach localhost');
    expect(narrowed.structuredContent?.next).toContain('--network api.example.com,localhost');
    const listed = await hub.call('registry_list', { server: 'strict' });
    expect(listed.structuredContent?.sandbox).toMatchObject({ network: 'only api.example.com' });
  } finally {
    await hub.close();
  }
});
