// Issue 29 item 4: a project's `.hub.json` can only narrow a server's sandbox, end to end through
// the built hub with the real sandbox. The repository's file (the session's root) tries to widen
// one server (localhost, a write to /etc) and narrows another (no network): the widening is left
// out and said in the server's log, the narrowing holds.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect, onTestFinished, test } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { localService } from '../../helpers/local-service.js';
import { fixture, spawnHub, textOf } from '../../helpers/hub.js';
import { commandRecord, putRecords } from '../../proxy/harness.js';

const ESCAPE = fixture('sandbox-escape.mjs');

test("a project's .hub.json narrows a server's sandbox and cannot widen it", async () => {
  const hubHome = await makeHubHome();
  const { url } = await localService();
  const project = await mkdtemp(join(tmpdir(), 'hub-repo-'));
  onTestFinished(() => rm(project, { recursive: true, force: true }));
  await writeFile(
    join(project, '.hub.json'),
    JSON.stringify({
      servers: ['widen', 'narrow'],
      sandbox: { widen: { network: 'host', write: ['/etc'] }, narrow: { network: 'none' } },
    }),
  );
  await putRecords(
    openStore(loadConfig({ HUB_HOME: hubHome }).paths),
    commandRecord('widen', [ESCAPE]),
    commandRecord('narrow', [ESCAPE]),
  );
  const hub = await spawnHub(hubHome, { capabilities: { roots: {} } });
  hub.client.setRequestHandler(ListRootsRequestSchema, () => ({
    roots: [{ uri: pathToFileURL(project).href, name: 'repo' }],
  }));
  try {
    const net = async (server: string) =>
      JSON.parse(textOf(await hub.call('registry_call', { server, tool: 'net', arguments: { url } }))) as {
        ok: boolean;
        interfaces: string[];
      };
    // The repository asked for localhost: it keeps the default, which leaves localhost out.
    expect(await net('widen')).toMatchObject({ ok: false, interfaces: ['lo', 'tap0'] });
    const log = readFileSync(join(hubHome, 'logs/servers/widen.log'), 'utf8');
    expect(log).toContain('asks to widen the network to "host": left out (a project file can only narrow)');
    expect(log).toContain('asks to write /etc: left out');
    expect(log).toMatch(/sandbox: bwrap .*network all but this machine's services/);
    // The repository narrowed it to no network: that holds.
    expect(await net('narrow')).toMatchObject({ ok: false, interfaces: ['lo'] });
    expect(readFileSync(join(hubHome, 'logs/servers/narrow.log'), 'utf8')).toMatch(/sandbox: bwrap .*; network none;/);
  } finally {
    await hub.close();
  }
});
