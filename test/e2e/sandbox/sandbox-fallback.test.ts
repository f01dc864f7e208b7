// Issue 29 item 5, through the built hub: where no sandbox can run (here: bubblewrap is not on
// PATH), a child does not start unsandboxed unnoticed: its start fails saying why and how a person
// allows it, `hub status` says so, and once the person allows it (config.json) it starts, its log
// saying it runs unsandboxed.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test, vi } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { SERVER_JS, spawnHub, textOf } from '../../helpers/hub.js';
import { ECHO, commandRecord, putRecords } from '../../proxy/harness.js';

const run = promisify(execFile);
// No bwrap on it (node is started by its absolute path, the child too).
const NO_BWRAP = '/nonexistent';

test('no sandbox here: the start fails saying why and how to allow it; hub-mcp status says so; the person allows it', async () => {
  const home = await makeHubHome();
  await putRecords(openStore(loadConfig({ HUB_HOME: home }).paths), commandRecord('echo', [ECHO]));
  const status = await run(process.execPath, [SERVER_JS, 'status'], {
    env: { ...process.env, HUB_HOME: home, PATH: NO_BWRAP },
  });
  expect(status.stdout).toMatch(/^Sandbox: none: bubblewrap \(bwrap\) is not installed.*--no-sandbox/m);

  const hub = await spawnHub(home, { env: { PATH: NO_BWRAP } });
  try {
    const refused = await hub.call('registry_call', { server: 'echo', tool: 'echo', arguments: { text: 'hi' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(
      /server "echo" was not started: no sandbox can run here \(bubblewrap \(bwrap\) is not installed: install bubblewrap/,
    );
    expect(textOf(refused)).toContain('hub-mcp servers configure echo --no-sandbox');
    expect(textOf(refused)).toContain('"sandbox": { "enabled": false } in config.json');

    // The person's choice, for every server: applies at the next start, no restart of hub.
    await writeFile(join(home, 'config.json'), JSON.stringify({ sandbox: { enabled: false } }));
    await vi.waitFor(
      async () => {
        const done = await hub.call('registry_call', { server: 'echo', tool: 'echo', arguments: { text: 'hi' } });
        expect(textOf(done)).toBe('hi');
      },
      { timeout: 20_000, interval: 200 },
    );
    expect(readFileSync(join(home, 'logs/servers/echo.log'), 'utf8')).toContain(
      'sandbox: off (config.json sandbox.enabled: false)',
    );
  } finally {
    await hub.close();
  }
});
