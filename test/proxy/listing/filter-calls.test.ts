// Calls to tools the filter left out, through the SDK Server's lane (an in-process hub has no fast
// path: the stdio e2e tests cover that one): refused with the reason, never "unknown tool", and
// with no child started.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { fingerprintsOf } from '../../../src/proxy/listing/tool-integrity.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { startHubInProcess, textOf } from '../../helpers/hub.js';
import { ECHO, commandRecord, putRecords, spawnCount } from '../harness.js';

const tool = (name: string, description = `The ${name} tool.`) => ({
  name,
  description,
  inputSchema: { type: 'object' as const, properties: {} },
});

test('the SDK lane refuses denied, withheld and disabled tools with their reason and starts nothing', async () => {
  const home = await makeHubHome();
  const spawns = join(home, 'spawns.log');
  const env = { ECHO_SPAWN_LOG: spawns };
  await putRecords(
    openStore(loadConfig({ HUB_HOME: home }).paths),
    commandRecord('echo', [ECHO], { env, tools: [tool('echo'), tool('pid')], settings: { deny: ['pid'] } }),
    commandRecord('moved', [ECHO], {
      env,
      tools: [tool('echo', 'Now says something else.')],
      fingerprints: fingerprintsOf([tool('echo')]),
    }),
    commandRecord('off', [ECHO], { env, tools: [tool('echo')], settings: { enabled: false } }),
  );
  const hub = await startHubInProcess(home);
  try {
    const names = (await hub.client.listTools()).tools.map(entry => entry.name);
    expect(names.filter(name => /^(echo|moved|off)_/.test(name))).toEqual(['echo_echo']);
    expect(textOf(await hub.call('echo_pid'))).toMatch(/^TOOL_REFUSED: .*tools\.deny "pid"/);
    expect(textOf(await hub.call('echo.pid'))).toMatch(/registry\.configure/);
    expect(textOf(await hub.call('moved_echo'))).toMatch(/^TOOL_REFUSED: .*is withheld by hub/);
    expect(textOf(await hub.call('off_echo'))).toMatch(/^SERVER_DISABLED: Server "off" is disabled/);
    expect(textOf(await hub.call('registry_call', { server: 'off', tool: 'echo' }))).toContain('SERVER_DISABLED');
    expect(spawnCount(spawns)).toBe(0);
  } finally {
    await hub.close();
  }
});
