// `npm run demo` as a test: the built demo (dist/demo.js) runs a real client session against
// hub offline (the bundled everything server instead of an npm install), exits 0, narrates
// every capability, and leaves neither its temp HUB_HOME nor its web server behind.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { isAlive } from '../../helpers/processes.js';

const DEMO_JS = fileURLToPath(new URL('../../../dist/demo.js', import.meta.url));

test('npm run demo (HUB_OFFLINE=1) walks search, install, proxied call and a dev server, exits 0 and cleans up', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [DEMO_JS], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', HUB_OFFLINE: '1' },
    timeout: 110_000,
  });
  for (const expected of [
    /tools\/list: what hub offers/,
    /registry_search .*\n\s+- memory: @modelcontextprotocol\/server-memory/,
    /Registered everything: \d+ tools, state ready/,
    /< Echo: hello through hub/,
    /ready=true \(port\)/,
    /< hello from a process started by hub/,
    /returns 1 new line\(s\):\n\s+\| \S+ GET \/again/,
    /is killed/,
    /^Done:/m,
  ]) {
    expect(stdout).toMatch(expected);
  }
  const home = /temporary HUB_HOME \(([^)]+)\)/.exec(stdout)?.[1];
  expect(home).toBeDefined();
  expect(existsSync(home!)).toBe(false);
  const pid = Number(/\(pid (\d+)\)/.exec(stdout)?.[1]);
  expect(pid).toBeGreaterThan(1);
  expect(isAlive(pid)).toBe(false);
}, 120_000);
