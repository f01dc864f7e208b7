// Issue 10.15: the CLI as a person meets it: --help on every command, exit codes 0/1/2, one
// readable line per error (no JSON log lines), npm's noise hidden, uninstall and upgrade.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { COMMANDS } from '../../../src/cli/usage.js';
import { cliWith as cli } from '../../helpers/cli.js';
import { npmHome } from '../../helpers/install.js';

describe('hub CLI', () => {
  test('every command answers --help (and -h) with its usage on stdout, exit 0, touching nothing', async () => {
    const { env, npm } = await npmHome();
    const names = Object.keys(COMMANDS);
    const results = await Promise.all(names.map(name => cli(env, name, name === 'kill' ? '-h' : '--help')));
    results.forEach((result, index) => {
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(new RegExp(`^Usage: hub-mcp ${names[index]}\\b`));
    });
    expect(await npm.runs()).toEqual([]);
  });

  test('exit 2 for wrong usage, 1 for a failure, each as one readable line', async () => {
    const { env } = await npmHome();
    const unknownOption = await cli(env, 'ps', '--zzz');
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr).toMatch(
      /^hub-mcp ps: Unknown option --zzz\. Usage: hub-mcp ps \[--status S\][^\n]*\n$/,
    );
    expect((await cli(env, 'frobnicate')).code).toBe(2);
    expect((await cli(env, 'uninstall')).code).toBe(2);
    const missing = await cli(env, 'logs', 'nobody');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^hub-mcp logs: No process with id or name "nobody"[^\n]*\n$/);
  });

  test("install: npm http lines only with --verbose; a failed install shows npm's error once, no JSON log lines", async () => {
    const { env } = await npmHome();
    const quiet = await cli(env, 'install', 'some-server@2.0.0', '--name', 'some', '--no-start');
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).not.toContain('npm http');
    const verbose = await cli(env, 'install', 'other-server', '--no-start', '--verbose');
    expect(verbose.code).toBe(0);
    expect(verbose.stderr).toContain('npm http fetch GET 200 https://registry.example/other-server');

    const failed = await cli(env, 'install', 'fail-server');
    expect(failed.code).toBe(1);
    expect(failed.stderr.split('npm error code E404')).toHaveLength(2);
    expect(failed.stderr).toMatch(/^hub-mcp install: npm install of "fail-server" failed/m);
    expect(failed.stderr.split('\n').filter(line => line.startsWith('{'))).toEqual([]);
  });

  test('install pkg@^1.9.0 over an installed 1.10.0 is the same version (semver, not a text compare): no new npm run', async () => {
    const { env, npm } = await npmHome();
    expect((await cli(env, 'install', 'some-server@1.10.0', '--name', 'some', '--no-start')).code).toBe(0);
    const again = await cli(env, 'install', 'some-server@^1.9.0', '--name', 'some', '--no-start', '--json');
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(again.stdout)).toMatchObject({ name: 'some', version: '1.10.0' });
    expect(await npm.runs()).toHaveLength(1);
    // A version the installed one does not satisfy is still refused, with the way to upgrade.
    const other = await cli(env, 'install', 'some-server@^1.11.0', '--name', 'some', '--no-start');
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/already runs some-server@1\.10\.0; to replace it with some-server@\^1\.11\.0/);
  });

  test('uninstall removes a server (several at once); an unknown name is exit 1', async () => {
    const { env } = await npmHome();
    expect((await cli(env, 'install', 'some-server', '--name', 'some', '--no-start')).code).toBe(0);
    expect((await cli(env, 'install', 'other-server', '--name', 'other', '--no-start')).code).toBe(0);
    const removed = await cli(env, 'uninstall', 'some', 'other');
    expect(removed).toMatchObject({ code: 0, stderr: '' });
    expect(removed.stdout).toMatch(/^Uninstalled some \(removed .*servers\/some\)/);
    expect(JSON.parse((await cli(env, 'servers', '--json')).stdout)).toEqual([]);
    const again = await cli(env, 'uninstall', 'some');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^hub-mcp uninstall: No server named "some" is installed[^\n]*\n$/);
  });

  test('upgrade installs the package at @latest under the same name, with its env and args', async () => {
    const { env, home, npm } = await npmHome();
    expect(
      (
        await cli(
          env,
          'install',
          'some-server@2.0.0',
          '--name',
          'some',
          '--env',
          'API_KEY=kept',
          '--arg=stdio',
          '--no-start',
        )
      ).code,
    ).toBe(0);
    const upgraded = await cli(env, 'upgrade', 'some', '--json');
    expect(upgraded.code).toBe(0);
    expect(JSON.parse(upgraded.stdout)).toMatchObject({
      name: 'some',
      package: 'some-server',
      version: '1.2.3',
      previousVersion: '2.0.0',
    });
    expect((await npm.runs()).at(-1)).toContain('some-server@latest');
    const record = (
      JSON.parse(await readFile(join(home, 'db.json'), 'utf8')) as {
        servers: Record<string, { env: unknown; args: string[] }>;
      }
    ).servers.some!;
    expect(record.env).toEqual({ API_KEY: 'kept' });
    expect(record.args).toHaveLength(2);
    expect(record.args[1]).toBe('stdio');
    expect((await cli(env, 'upgrade', 'nobody')).code).toBe(1);
  });

  test('install --allow-scripts keeps the scripts choice in the record for upgrades', async () => {
    const { env, home } = await npmHome();
    const installed = await cli(
      env,
      'install',
      'some-server',
      '--name',
      'some',
      '--allow-scripts',
      'sqlite3',
      '--no-start',
    );
    expect(installed.code, installed.stderr).toBe(0);
    const record = (
      JSON.parse(await readFile(join(home, 'db.json'), 'utf8')) as {
        servers: Record<string, { allowScripts?: unknown }>;
      }
    ).servers.some!;
    expect(record.allowScripts).toEqual(['sqlite3']);
  });

  test('hub-mcp install in a terminal waits for a long install instead of leaving it in the background', async () => {
    const { env, home } = await npmHome();
    await writeFile(join(home, 'config.json'), JSON.stringify({ install: { foregroundMs: 200 } }));
    const installed = await cli(
      { ...env, FAKE_NPM_SLOW_MS: '1500' },
      'install',
      'some-server',
      '--name',
      'slow',
      '--json',
    );
    expect(installed.code, installed.stderr).toBe(0);
    expect(JSON.parse(installed.stdout)).toMatchObject({ name: 'slow', state: 'ready' });
    expect(JSON.parse(installed.stdout).background).toBeUndefined();
  });
});
