// Issue 30 item 2: on a system hub cannot manage dev processes on (Windows today; forced here
// with HUB_PLATFORM=win32), the built hub still starts, proxies a real server and installs, and
// every process tool, resource and CLI command answers one clear error.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, onTestFinished, test } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { SERVER_JS, spawnHub, textOf } from '../../helpers/hub.js';
import { fakeNpm } from '../../helpers/install.js';
import { stopSharedHubIn } from '../../helpers/shared-hub.js';
import { commandRecord, putRecords } from '../../proxy/harness.js';

const EVERYTHING = fileURLToPath(
  new URL('../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const ERROR =
  'Dev processes are not supported on HUB_PLATFORM=win32 yet: hub runs them on Linux and macOS (docs/platforms.md). Servers, installs and the rest of hub work here.';

test('HUB_PLATFORM=win32: hub starts, proxies and installs; the process tools answer one clear error', async () => {
  const home = await makeHubHome();
  onTestFinished(() => stopSharedHubIn(home));
  await putRecords(openStore(loadConfig({ HUB_HOME: home }).paths), commandRecord('everything', [EVERYTHING]));
  const npm = fakeNpm(home);
  const hub = await spawnHub(home, { env: { ...npm.env, HUB_PLATFORM: 'win32' } });
  onTestFinished(() => hub.close());

  const names = (await hub.client.listTools()).tools.map(tool => tool.name);
  expect(names).toContain('start_process');

  const echoed = await hub.call('registry_call', { server: 'everything', tool: 'echo', arguments: { message: 'hi' } });
  expect(echoed.isError, textOf(echoed)).toBeFalsy();
  expect(textOf(echoed)).toContain('hi');

  const installed = await hub.call('registry_install', { package: 'chatty-server', start: false });
  expect(installed.isError, textOf(installed)).toBeFalsy();
  expect(await npm.runs()).not.toEqual([]);

  for (const [tool, args] of [
    ['start_process', { command: 'echo hi' }],
    ['list_processes', {}],
    ['get_process_logs', { id: 'web' }],
    ['kill_process', { id: 'web' }],
  ] as const) {
    const result = await hub.call(tool, args);
    expect(result.isError, tool).toBe(true);
    expect(textOf(result), tool).toBe(`UNSUPPORTED_PLATFORM: ${ERROR}`);
  }

  // The CLI: one line on stderr and a failing exit code, nothing on stdout.
  const ps = await promisify(execFile)(process.execPath, [SERVER_JS, 'ps'], {
    env: { ...process.env, HUB_HOME: home, HUB_PLATFORM: 'win32' },
  }).then(
    () => ({ code: 0, stdout: '', stderr: '' }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
  expect(ps.code).not.toBe(0);
  expect(ps.stdout).toBe('');
  expect(ps.stderr.trim().split('\n')).toHaveLength(1);
  expect(ps.stderr).toContain(ERROR);
});
