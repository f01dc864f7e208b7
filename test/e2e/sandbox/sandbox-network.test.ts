// Issue 29 item 3, end to end through the built hub with the real sandbox: by default a child
// reaches the network but not this machine's services (its own network namespace, slirp4netns
// with the host's loopback off), so a 127.0.0.1 service of the person is out of its reach;
// `network: "host"` (a person's grant: the agent's request asks) gives it localhost; `none` gives
// it no interface but its own loopback.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { localService } from '../../helpers/local-service.js';
import { SERVER_JS, fixture, spawnHub, textOf } from '../../helpers/hub.js';
import { commandRecord, putRecords } from '../../proxy/harness.js';

const ESCAPE = fixture('sandbox-escape.mjs');
const run = promisify(execFile);

test("the default network leaves out this machine's services; host grants them; none cuts everything", async () => {
  const hubHome = await makeHubHome();
  const { url } = await localService();
  await putRecords(
    openStore(loadConfig({ HUB_HOME: hubHome }).paths),
    commandRecord('open', [ESCAPE]),
    commandRecord('local', [ESCAPE], { settings: { sandbox: { network: 'host' } } }),
    commandRecord('cut', [ESCAPE], { settings: { sandbox: { network: 'none' } } }),
  );
  const hub = await spawnHub(hubHome);
  try {
    const net = async (server: string) =>
      JSON.parse(textOf(await hub.call('registry_call', { server, tool: 'net', arguments: { url } }))) as {
        ok: boolean;
        got?: string;
        interfaces: string[];
      };
    // The default: a network interface of its own (the relay's), and the person's service refused.
    const open = await net('open');
    expect(open).toMatchObject({ ok: false, interfaces: ['lo', 'tap0'] });
    expect(readFileSync(join(hubHome, 'logs/servers/open.log'), 'utf8')).toContain(
      "network all but this machine's services (slirp4netns",
    );
    expect(await net('local')).toMatchObject({ ok: true, got: 'reachable' });
    expect(await net('cut')).toMatchObject({ ok: false, interfaces: ['lo'] });

    // Localhost is a grant: the agent asking for it is asked of the person.
    const widened = await hub.call('registry_configure', { server: 'open', sandbox: { network: 'host' } });
    expect(textOf(widened)).toMatch(/^CONSENT_UNAVAILABLE: Nothing changed/);
    expect(textOf(widened)).toContain('localhost services included');
    expect(widened.structuredContent?.next).toContain('hub-mcp servers configure open --network host');
    const status = (await run(process.execPath, [SERVER_JS, 'status'], { env: { ...process.env, HUB_HOME: hubHome } }))
      .stdout;
    expect(status).toMatch(/^Sandbox: bubblewrap .*not this machine's services \(slirp4netns\)/m);
  } finally {
    await hub.close();
  }
});
