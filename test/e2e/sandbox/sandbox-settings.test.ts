// Issue 29 item 4 and its bad input, through the built hub: the agent narrows a server's sandbox
// alone (network none), anything that widens it (a read or write grant, running unsandboxed) asks
// the person, and a client that cannot ask gets the terminal command; bad paths (relative, /,
// missing, a symlink into ~/.ssh, HUB_HOME) and named hosts are errors naming the field that
// change nothing. The policy in force shows in registry.list { server }, `hub servers <name>` and
// `hub status` says which sandbox runs.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, onTestFinished, test } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { SERVER_JS, spawnHub, textOf } from '../../helpers/hub.js';
import { ECHO, commandRecord, putRecords } from '../../proxy/harness.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

test('the agent narrows a sandbox alone; widening asks the person; bad paths change nothing; the policy shows', async () => {
  const hubHome = await makeHubHome();
  const person = await mkdtemp(join(tmpdir(), 'hub-person-'));
  onTestFinished(() => rm(person, { recursive: true, force: true }));
  await mkdir(join(person, '.ssh'));
  await writeFile(join(person, '.ssh/id_rsa'), 'key');
  const project = join(person, 'project');
  await mkdir(project);
  // A link in the project that leads out of it, into the keys.
  await symlink(join(person, '.ssh'), join(project, 'keys'));
  await putRecords(openStore(loadConfig({ HUB_HOME: hubHome }).paths), commandRecord('files', [ECHO]));
  const cli = async (...args: string[]) =>
    (await run(process.execPath, [SERVER_JS, ...args], { env: { ...process.env, HUB_HOME: hubHome, HOME: person } }))
      .stdout;
  const hub = await spawnHub(hubHome, { env: { HOME: person } });
  try {
    const sandboxOf = async () => (await hub.call('registry_list', { server: 'files' })).structuredContent?.sandbox;
    expect(await sandboxOf()).toMatchObject({ mode: 'bubblewrap', network: 'all' });

    // Narrowing: no question.
    const narrowed = await hub.call('registry_configure', { server: 'files', sandbox: { network: 'none' } });
    expect(narrowed.isError, textOf(narrowed)).toBeFalsy();
    expect(narrowed.structuredContent?.sandbox).toMatchObject({ mode: 'bubblewrap', network: 'none' });

    // Bad input: an error naming the field, and nothing changes.
    const bad: [object, RegExp][] = [
      [{ read: ['project'] }, /Field "sandbox\.read": "project" is not an absolute path/],
      [{ write: ['/'] }, /Field "sandbox\.write": "\/" is the whole file system/],
      [{ read: [join(person, 'nowhere')] }, /Field "sandbox\.read": ".*nowhere" does not exist/],
      [{ write: [join(project, 'keys')] }, /Field "sandbox\.write": ".*keys" is \(or is in\) .*\.ssh/],
      [{ read: [hubHome] }, /Field "sandbox\.read": .* is in HUB_HOME/],
      [{ network: 'api.github.com' }, /Field "sandbox\.network"/],
      [{ network: ['api.github.com/x'] }, /Field "sandbox\.network\.0": give a host name/],
      [{ nework: 'all' }, /Field "sandbox"/],
    ];
    for (const [sandbox, message] of bad) {
      const refused = await hub.call('registry_configure', { server: 'files', sandbox });
      expect(refused.isError, JSON.stringify(sandbox)).toBe(true);
      expect(textOf(refused)).toMatch(/^INVALID_INPUT: /);
      expect(textOf(refused)).toMatch(message);
    }
    expect((await hub.call('registry_list', { server: 'files' })).structuredContent?.settings).toEqual({
      sandbox: { network: 'none' },
    });

    // Widening: this client cannot ask the person, so nothing changes and the command is given.
    const widen: [object, string, string][] = [
      [{ read: [project] }, `let it read ${project}`, `--sandbox-read ${project}`],
      [{ write: ['roots'] }, "let it write the session's roots", '--sandbox-write roots'],
      [{ enabled: false }, 'run it without its sandbox', '--no-sandbox'],
      [{ network: 'all' }, 'give it the network', '--network all'],
    ];
    for (const [sandbox, why, flags] of widen) {
      const refused = await hub.call('registry_configure', { server: 'files', sandbox });
      expect(textOf(refused)).toMatch(/^CONSENT_UNAVAILABLE: Nothing changed/);
      expect(textOf(refused)).toContain(why);
      expect(refused.structuredContent?.next).toContain(`hub-mcp servers configure files ${flags}`);
    }
    expect((await hub.call('registry_list', { server: 'files' })).structuredContent?.settings).toEqual({
      sandbox: { network: 'none' },
    });

    // The person types it: it applies, and every view shows the policy in force.
    await cli('servers', 'configure', 'files', '--sandbox-read', project, '--sandbox-write', 'roots');
    expect(await sandboxOf()).toMatchObject({
      mode: 'bubblewrap',
      network: 'none',
      read: expect.arrayContaining([project]),
      write: expect.arrayContaining(["the session's roots"]),
    });
    expect(await cli('servers', 'files')).toMatch(
      /sandbox: bubblewrap, network none; reads .*project.*; writes .*roots/,
    );
    await expect(cli('servers', 'configure', 'files', '--sandbox-read', 'relative/path')).rejects.toThrow(
      /not an absolute path/,
    );
    await cli('servers', 'configure', 'files', '--no-sandbox');
    expect(await sandboxOf()).toEqual({ mode: "off (this server's settings)" });
    expect(await cli('status')).toMatch(/^Sandbox: bubblewrap /m);
  } finally {
    await hub.close();
  }
});
