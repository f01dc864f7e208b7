// Issue 30.4: a native build uses the running Node's own headers when they are there, instead of
// node-gyp downloading them (which fails on a machine that reaches only a package registry).
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, onTestFinished, test } from 'vitest';
import { nodeHeadersEnv } from '../../../src/registry/npm/node-headers.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { SERVER_JS } from '../../helpers/hub.js';
import { makeHubHome } from '../../helpers/home.js';
import { fakeNpm } from '../../helpers/install.js';

const withoutNodedir = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(env).filter(([key]) => key.toLowerCase() !== 'npm_config_nodedir'));

async function nodeInstall(withHeaders: boolean): Promise<string> {
  const prefix = await mkdtemp(join(tmpdir(), 'hub-node-prefix-'));
  onTestFinished(() => rm(prefix, { recursive: true, force: true }));
  await mkdir(join(prefix, 'bin'));
  if (withHeaders) {
    await mkdir(join(prefix, 'include', 'node'), { recursive: true });
    await writeFile(join(prefix, 'include', 'node', 'node.h'), '');
  }
  return join(prefix, 'bin', 'node');
}

test("npm_config_nodedir is the running Node's prefix when it holds include/node, unless the user set one", async () => {
  const node = await nodeInstall(true);
  expect(nodeHeadersEnv({}, undefined, node)).toEqual({ npm_config_nodedir: dirname(dirname(node)) });
  expect(nodeHeadersEnv({ NPM_CONFIG_NODEDIR: '/mine' }, undefined, node)).toEqual({});
  expect(nodeHeadersEnv({}, '/from/npmrc', node)).toEqual({});
  expect(nodeHeadersEnv({}, undefined, await nodeInstall(false))).toEqual({});
});

test('hub-mcp install runs npm with it', async () => {
  const home = await makeHubHome();
  const log = join(home, 'nodedir.log');
  const npm = fakeNpm(home, { FAKE_NPM_NODEDIR_LOG: log });
  await promisify(execFile)(process.execPath, [SERVER_JS, 'install', 'some-server', '--no-start'], {
    // Without the nodedir npm exports to the test run from the user's npmrc (this run's own setting).
    env: { ...withoutNodedir(process.env), ...npm.env, HUB_HOME: home },
  });
  const prefix = dirname(dirname(process.execPath));
  const expected = existsSync(join(prefix, 'include', 'node', 'node.h')) ? prefix : '(unset)';
  expect(readFileSync(log, 'utf8')).toBe(`install ${expected}\n`);
});
