// Issue 29 item 8, end to end through the built hub with the real sandbox (bubblewrap): a hostile
// child tries to read ~/.ssh/id_rsa, HUB_HOME/db.json and another server's env, to write
// ~/.bashrc and ~/.config/autostart/, and to reach a 127.0.0.1 service it was not granted. Each
// attempt fails and its server log says so; the same child run unsandboxed by the person's
// setting succeeds at each, so the sandbox is what stops it.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, onTestFinished, test } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { localService } from '../../helpers/local-service.js';
import { fixture, spawnHub, textOf } from '../../helpers/hub.js';
import { ECHO, commandRecord, putRecords } from '../../proxy/harness.js';

const ESCAPE = fixture('sandbox-escape.mjs');
const MARKER = 'victim-secret-5f1c2e';
const KEY = '-----BEGIN OPENSSH PRIVATE KEY----- fake';

type Attempts = Record<string, { ok: boolean; got?: string; error?: string }>;

async function personHome(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'hub-person-'));
  onTestFinished(() => rm(home, { recursive: true, force: true }));
  await mkdir(join(home, '.ssh'), { mode: 0o700 });
  await writeFile(join(home, '.ssh/id_rsa'), KEY, { mode: 0o600 });
  await writeFile(join(home, '.bashrc'), "# the person's own\n");
  await mkdir(join(home, '.config'));
  return home;
}

test('a hostile child is stopped by its sandbox at every attempt, and succeeds at each when a person turns it off', async () => {
  const hubHome = await makeHubHome();
  const person = await personHome();
  const { url } = await localService();
  await putRecords(
    openStore(loadConfig({ HUB_HOME: hubHome }).paths),
    commandRecord('victim', [ECHO], { env: { VICTIM_TOKEN: MARKER } }),
    commandRecord('jail', [ESCAPE], { settings: { sandbox: { network: 'none' } } }),
    commandRecord('free', [ESCAPE], { settings: { sandbox: { enabled: false } } }),
  );
  const hub = await spawnHub(hubHome, { env: { HOME: person } });
  try {
    // The victim runs meanwhile, its secret in its environment (and in db.json).
    expect(textOf(await hub.call('registry_call', { server: 'victim', tool: 'echo', arguments: { text: 'up' } }))).toBe(
      'up',
    );
    const escape = async (server: string): Promise<Attempts> => {
      const result = await hub.call('registry_call', {
        server,
        tool: 'escape',
        arguments: { db: join(hubHome, 'db.json'), marker: MARKER, url },
      });
      return JSON.parse(textOf(result)) as Attempts;
    };

    const jailed = await escape('jail');
    for (const name of ['ssh', 'db', 'env', 'bashrc', 'autostart', 'network'])
      expect({ name, ...jailed[name] }).toMatchObject({ name, ok: false });
    expect(readFileSync(join(person, '.bashrc'), 'utf8')).toBe("# the person's own\n");
    expect(existsSync(join(person, '.config/autostart'))).toBe(false);
    const jailLog = readFileSync(join(hubHome, 'logs/servers/jail.log'), 'utf8');
    expect(jailLog).toMatch(/sandbox: bwrap .*network none/);
    for (const name of ['ssh', 'db', 'env', 'bashrc', 'autostart', 'network'])
      expect(jailLog).toContain(`attempt ${name}: failed`);

    const free = await escape('free');
    expect(free.ssh).toEqual({ ok: true, got: KEY });
    expect(free.db?.ok).toBe(true);
    expect(free.db?.got).toContain('"servers"');
    expect(free.env).toMatchObject({ ok: true });
    expect(free.bashrc).toMatchObject({ ok: true });
    expect(free.autostart).toMatchObject({ ok: true });
    expect(free.network).toEqual({ ok: true, got: 'reachable' });
    expect(readFileSync(join(person, '.bashrc'), 'utf8')).toContain('curl evil');
    expect(existsSync(join(person, '.config/autostart/evil.desktop'))).toBe(true);
    expect(readFileSync(join(hubHome, 'logs/servers/free.log'), 'utf8')).toContain(
      "sandbox: off (this server's settings)",
    );
  } finally {
    await hub.close();
  }
});
