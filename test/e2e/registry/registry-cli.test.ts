// `hub install` and `hub servers` for people: the same install path, npm's output on stderr.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { SERVER_JS } from '../../helpers/hub.js';
import { fakeNpm } from '../../helpers/install.js';

const run = promisify(execFile);

test('hub-mcp install shows npm output on stderr and hub-mcp servers lists the result', async () => {
  const home = await makeHubHome();
  const npm = fakeNpm(home);
  const env = { ...process.env, ...npm.env, HUB_HOME: home, HUB_LOG_LEVEL: 'error' };
  const installed = await run(
    process.execPath,
    [
      SERVER_JS,
      'install',
      'some-server@2.0.0',
      '--name',
      'some',
      '--env',
      'API_KEY=hidden-value',
      '--no-start',
      '--verbose',
      '--json',
    ],
    { env },
  );
  expect(installed.stderr).toContain('npm http fetch GET 200 https://registry.example/some-server');
  expect(installed.stderr).toContain('hub: installed some-server@2.0.0');
  const result = JSON.parse(installed.stdout);
  expect(result).toMatchObject({
    name: 'some',
    package: 'some-server',
    version: '2.0.0',
    mode: 'npm',
    state: 'stopped',
  });
  expect(installed.stdout + installed.stderr).not.toContain('hidden-value');

  const table = await run(process.execPath, [SERVER_JS, 'servers'], { env });
  expect(table.stdout).toMatch(
    /^NAME\s+PACKAGE\s+STATE\s+TOOLS\s+CALLS\s+ERRORS\nsome\s+some-server@2\.0\.0\s+stopped\s+0\s+0\s+0\n/,
  );
  const json = JSON.parse((await run(process.execPath, [SERVER_JS, 'servers', '--json'], { env })).stdout);
  expect(json).toEqual([expect.objectContaining({ name: 'some', version: '2.0.0' })]);

  const refused = await run(process.execPath, [SERVER_JS, 'install', '../x'], { env }).catch(
    (error: { code: number; stderr: string }) => error,
  );
  expect(refused).toMatchObject({ code: 2 });
  expect((refused as { stderr: string }).stderr).toMatch(/^hub-mcp install: Field "package" "\.\.\/x" is a path/);
  expect(await npm.runs()).toHaveLength(1);
});
