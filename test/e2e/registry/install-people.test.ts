// Issue 30.4: installs that fail fast and clean. An upgrade that finds the latest version
// already installed says so and changes nothing; a package that is not an MCP server fails fast
// and leaves nothing `uninstall --purge` cannot remove; npm's advice for what hub refuses is not
// passed on. Fake npm on PATH (test/fixtures/install-fake-npm): no network.
import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { FIRST_START_MS } from '../../../src/registry/install/first-start.js';
import { cliWith as cli } from '../../helpers/cli.js';
import { npmHome } from '../../helpers/install.js';

const record = async (home: string, name: string): Promise<unknown> =>
  (JSON.parse(await readFile(join(home, 'db.json'), 'utf8')) as { servers: Record<string, unknown> }).servers[name];

describe('installs for people', () => {
  test('hub-mcp upgrade at the latest version says so and changes nothing', async () => {
    const { env, home } = await npmHome();
    expect((await cli(env, 'install', 'some-server', '--name', 'some', '--env', 'KEY=v')).code).toBe(0);
    const before = await record(home, 'some');
    const folder = join(home, 'servers', 'some');
    const inode = statSync(join(folder, 'package.json')).ino;

    const upgraded = await cli(env, 'upgrade', 'some');
    expect(upgraded.code, upgraded.stderr).toBe(0);
    expect(upgraded.stdout).toBe('some is already at the latest version (some-server 1.2.3); nothing changed.\n');
    expect(await record(home, 'some')).toEqual(before);
    // Not swapped: the same install folder, no staging or previous copy beside it.
    expect(statSync(join(folder, 'package.json')).ino).toBe(inode);
    expect((await readdir(join(home, 'servers'))).sort()).toEqual(['some']);

    const json = await cli(env, 'upgrade', 'some', '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ name: 'some', version: '1.2.3', upToDate: true });
    expect(existsSync(join(home, 'servers', 'some.upgrade'))).toBe(false);
  });
});

describe('installs that fail fast and clean', () => {
  test('a package that is not an MCP server (reads stdin silently, like cowsay) fails within 15 s and leaves nothing', async () => {
    const { env, home } = await npmHome();
    const installed = await cli(env, 'install', 'cowsay');
    expect(installed.code).toBe(1);
    expect(installed.stderr).toMatch(/Server "cowsay" did not start as an MCP server, so it was not installed/);
    // Cut at the first start's own deadline, not the 60 s start timeout (14 s in all here, under load).
    expect(installed.stderr).toContain(`within ${FIRST_START_MS} ms`);
    expect(await record(home, 'cowsay')).toBeUndefined();
    expect(existsSync(join(home, 'servers', 'cowsay'))).toBe(false);
    expect(existsSync(join(home, 'data', 'cowsay'))).toBe(false);
  }, 60_000);

  test('uninstall --purge removes what an install killed midway left under a name with no record', async () => {
    const { env, home } = await npmHome();
    await mkdir(join(home, 'servers', 'cowsay', 'node_modules', 'cowsay'), { recursive: true });
    await mkdir(join(home, 'data', 'cowsay'), { recursive: true });
    const plain = await cli(env, 'uninstall', 'cowsay');
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/No server named "cowsay" is installed/);
    const purged = await cli(env, 'uninstall', '--purge', 'cowsay');
    expect(purged.code, purged.stderr).toBe(0);
    expect(purged.stdout).toMatch(/^cowsay was not installed; removed what an unfinished install left: /);
    expect(existsSync(join(home, 'servers', 'cowsay'))).toBe(false);
    expect(existsSync(join(home, 'data', 'cowsay'))).toBe(false);
    expect((await cli(env, 'uninstall', '--purge', '../etc')).code).toBe(1);
  });

  test("npm's advice to install from a tarball, folder, http url or git url, which hub refuses, is not passed on", async () => {
    const { env } = await npmHome();
    const failed = await cli(env, 'install', 'fail-server');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("'fail-server' is not in this registry");
    expect(failed.stderr).not.toMatch(/tarball|git url|install from a/);
  });
});
