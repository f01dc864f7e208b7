// Issue 30.1: what a user gets from npm. The tarball `npm pack` makes (of the dist/ this run
// built) is installed globally into a private prefix, and an MCP session runs through the
// installed command, as a client config starts it. Its dependencies come from the npm registry
// npm is configured with: it runs with HUB_TEST_NPM=1 (.ci/run sets it), as the other npm-registry tests.
import { NPM_ONLINE, npmSkipped } from '../helpers/npm-online.js';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect, onTestFinished, test } from 'vitest';
import { COMMAND_NAME, PACKAGE_NAME } from '../../src/core/package-name.js';
import { makeHubHome } from '../helpers/home.js';
import { noteHubHome } from '../helpers/shared-hub.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;

// npm needs the machine's network settings (proxy, extra CA); npm's own lifecycle variables from
// the test run are left out (npm_config_prefix would redirect the install).
const npmEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^npm_(lifecycle|package|config_(prefix|global|local_prefix|user_agent))/i.test(key),
    ),
  );

test('package.json names the package and the command as hub does, and says what it needs', () => {
  expect(pkg.name).toBe(PACKAGE_NAME);
  expect(pkg.bin).toEqual({ [COMMAND_NAME]: 'dist/server.js' });
  // GitHub's hub CLI owns `hub` on many Macs: a bin of that name would fail a global install (EEXIST).
  expect(Object.keys(pkg.bin as object)).not.toContain('hub');
  expect(pkg).toMatchObject({ license: 'MIT', engines: { node: expect.any(String) } });
  expect(pkg.repository).toMatchObject({ type: 'git', url: expect.stringMatching(/^git\+https:/) });
  expect((pkg.keywords as string[]).length).toBeGreaterThan(3);
  expect(pkg.os).toEqual(expect.arrayContaining(['linux', 'darwin']));
  // Nothing runs when a consumer installs: the build is done when packing.
  expect(Object.keys(pkg.scripts as object)).not.toEqual(
    expect.arrayContaining([expect.stringMatching(/^(prepare|preinstall|install|postinstall)$/)]),
  );
  expect(existsSync(join(ROOT, 'LICENSE'))).toBe(true);
});

test.skipIf(!NPM_ONLINE)(
  `npm pack, npm install -g into a private prefix, then an MCP session and the CLI through the installed command${npmSkipped()}`,
  async () => {
    const work = await mkdtemp(join(tmpdir(), 'hub-package-'));
    onTestFinished(() => rm(work, { recursive: true, force: true }));
    // A cache of its own: npx below installs into <cache>/_npx, never the user's.
    const env = { ...npmEnv(), npm_config_cache: join(work, 'npm-cache'), npm_config_update_notifier: 'false' };

    // dist/ is this run's build (global setup): packed as is, prepack's rebuild skipped.
    const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
      cwd: ROOT,
      env,
      maxBuffer: 64 * 1024 * 1024,
    });
    const [report] = JSON.parse(packed.stdout) as [{ filename: string; files: { path: string }[] }];
    const files = report.files.map(file => file.path);
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'dist/server.js']));
    // Maps point at src/, which is not shipped.
    expect(files.filter(file => file.endsWith('.map'))).toEqual([]);
    expect(files.filter(file => !/^(dist\/|LICENSE$|README\.md$|package\.json$)/.test(file))).toEqual([]);

    const prefix = join(work, 'prefix');
    const installed = await run(
      'npm',
      ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', join(work, report.filename)],
      { env, maxBuffer: 16 * 1024 * 1024, timeout: 240_000 },
    );
    // No script of hub's own runs on install, so npm has nothing to warn about (it did for prepare).
    expect(installed.stderr).not.toMatch(/prepare|install-scripts|hub-mcp@/);
    const bin = join(prefix, 'bin', COMMAND_NAME);
    expect(existsSync(bin)).toBe(true);
    expect(await readdir(join(prefix, 'bin'))).toEqual([COMMAND_NAME]);

    const home = await makeHubHome();
    const cliEnv = { ...env, HUB_HOME: home, PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? '/usr/bin:/bin'}` };
    expect((await run(bin, ['--version'], { env: cliEnv })).stdout.trim()).toBe(pkg.version);

    // A client config's entry: the command alone, found on PATH.
    noteHubHome(home);
    const transport = new StdioClientTransport({
      command: COMMAND_NAME,
      args: [],
      env: Object.fromEntries(
        Object.entries(cliEnv).filter((entry): entry is [string, string] => entry[1] !== undefined),
      ),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'hub-package-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'hub', version: pkg.version });
      const names = (await client.listTools()).tools.map(tool => tool.name);
      expect(names).toEqual(expect.arrayContaining(['registry_search', 'registry_list', 'start_process']));
      const listed = await client.callTool({ name: 'registry_list', arguments: {} });
      expect(listed.isError).toBeFalsy();
    } finally {
      await client.close();
    }

    // The CLI through the same command: the shared hub that session started answers `status`,
    // and `config` names the installed command's own files, not this checkout.
    const status = await run(bin, ['status', '--json'], { env: cliEnv });
    expect(JSON.parse(status.stdout)).toMatchObject({ running: true });
    const config = await run(bin, ['config', 'cursor', '--json'], { env: { ...cliEnv, HOME: work } });
    const entry = (JSON.parse(config.stdout) as { entry: { command: string; args: string[] } }).entry;
    expect(entry.args[0]).toBe(join(prefix, 'lib', 'node_modules', PACKAGE_NAME, 'dist', 'server.js'));

    // Through npx (the way MCP server READMEs say to run one): the entry names the package,
    // which npx fetches again, not the folder in npx's cache that npm prunes.
    const npx = await run(
      'npx',
      ['-y', '--package', join(work, report.filename), COMMAND_NAME, 'config', 'claude-desktop', '--json'],
      { env: { ...cliEnv, HOME: work }, cwd: work, timeout: 240_000 },
    );
    expect((JSON.parse(npx.stdout) as { entry: unknown }).entry).toEqual({
      command: 'npx',
      args: ['-y', PACKAGE_NAME],
    });
    expect(npx.stdout).not.toContain('_npx');
  },
  300_000,
);
