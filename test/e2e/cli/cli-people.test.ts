// Issue 30.3: the CLI speaks to people. It names CLI commands, not tool calls; `start` fails
// loudly when the process is not ready; every command's --help lists its options and an
// example; bare hub-mcp in a terminal says what it is; `help <unknown>` is wrong usage.
import { spawn } from 'node:child_process';
import { describe, expect, test, vi } from 'vitest';
import { COMMANDS } from '../../../src/cli/usage.js';
import { cli } from '../../helpers/cli.js';
import { makeHubHome } from '../../helpers/home.js';
import { fixture, SERVER_JS } from '../../helpers/hub.js';
import getPort from 'get-port';

describe('hub-mcp for people', () => {
  test('every --help lists its options one per line and an example; help <unknown> exits 2', async () => {
    const home = await makeHubHome();
    for (const name of Object.keys(COMMANDS)) {
      const help = await cli(home, 'help', name);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`\\nExample:\\n  hub-mcp ${name}\\b`));
      // Each flag the usage line names is explained under Options.
      const options = help.stdout.slice(help.stdout.indexOf('\nOptions:'), help.stdout.indexOf('\nExample:'));
      for (const flag of new Set(COMMANDS[name as keyof typeof COMMANDS].usage.match(/--[a-z-]+/g) ?? []))
        expect(options, `${name} ${flag}`).toMatch(new RegExp(`${flag}\\b`));
    }
    const unknown = await cli(home, 'help', 'frobnicate');
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toMatch(/^hub-mcp: no help for "frobnicate"/);
  });

  test('bare hub-mcp with a terminal on stdin says what it is and how to use it, and exits', async () => {
    // util-linux script gives the command a pty as stdin, as a person's shell does.
    const child = spawn('script', ['-qfec', `${process.execPath} ${SERVER_JS}`, '/dev/null'], {
      env: { ...process.env, HUB_HOME: await makeHubHome() },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>(resolve => child.once('exit', resolve));
    try {
      await vi.waitFor(() => expect(out).toContain('is an MCP server'), { timeout: 15_000, interval: 50 });
      expect(out).toContain('hub-mcp config <client> --write');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  test('start --wait-for exits 1 saying the exit code when the command ends first, and on a timeout', async () => {
    const home = await makeHubHome();
    const ended = await cli(home, 'start', '--name', 'early', '--wait-for', 'ready', '--', 'echo starting; exit 3');
    expect(ended.code).toBe(1);
    expect(ended.stderr).toMatch(/^hub-mcp start: \w+ \(early\) exited with code 3 before it was ready\.\n/);
    expect(ended.stderr).toContain('starting');

    const slow = await cli(
      home,
      'start',
      '--name',
      'slow',
      '--wait-for',
      'never printed',
      '--timeout',
      '1',
      '--',
      'sleep 60',
    );
    expect(slow.code).toBe(1);
    expect(slow.stderr).toMatch(/was not ready after 1 s \(no line matched \/never printed\/\); it is still running/);
    expect(slow.stderr).toMatch(/hub-mcp kill \w+ stops it/);
    expect((await cli(home, 'kill', 'slow')).code).toBe(0);
  });

  test('start takes --env, --tag, --port and --timeout; ps shows the port; errors name CLI commands', async () => {
    const home = await makeHubHome();
    const port = await getPort({ host: '127.0.0.1' });
    const web = await cli(
      home,
      'start',
      '--name',
      'web',
      '--tag',
      'front',
      '--port',
      String(port),
      '--timeout',
      '20',
      '--env',
      'GREETING=hi there',
      '--',
      process.execPath,
      fixture('process-http-server.mjs'),
      String(port),
    );
    expect(web.code, web.stderr).toBe(0);
    expect(web.stdout).toMatch(/^Started \w+ \(web\), running, ready in \d+ ms \(port\)/);
    const env = await cli(
      home,
      'start',
      '--tag',
      'other',
      '--env',
      'GREETING=hi there',
      '--wait-for',
      'said',
      '--',
      'echo "said $GREETING"; sleep 30',
    );
    expect(env.code, env.stderr).toBe(0);
    const listed = await cli(home, 'ps', '--tag', 'front');
    expect(listed.stdout).toMatch(new RegExp(`\\bweb\\s+running\\s+\\d+\\s+${port}\\s`));
    expect(listed.stdout).not.toContain('said');
    expect((await cli(home, 'logs', env.stdout.match(/Started (\w+)/)![1]!)).stdout).toContain('said hi there');

    const twice = await cli(home, 'start', '--name', 'web', '--', 'sleep 5');
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('hub-mcp kill web first');
    expect(twice.stderr).not.toMatch(/_process/);
    expect((await cli(home, 'start', '--env', 'NOEQUALS', '--', 'true')).code).toBe(2);
    expect((await cli(home, 'start', '--timeout', '5', '--', 'true')).code).toBe(2);
    await cli(home, 'kill', 'web');
    await cli(home, 'kill', env.stdout.match(/Started (\w+)/)![1]!);
  }, 60_000);

  test('the PORTS column shows the ports a process listens on, declared or not', async () => {
    const home = await makeHubHome();
    const port = await getPort({ host: '127.0.0.1' });
    const started = await cli(
      home,
      'start',
      '--name',
      'quiet',
      '--wait-for',
      '^listening',
      '--',
      process.execPath,
      fixture('process-http-server.mjs'),
      String(port),
    );
    expect(started.code, started.stderr).toBe(0);
    expect((await cli(home, 'ps')).stdout).toMatch(new RegExp(`\\bquiet\\s+running\\s+\\d+\\s+${port}\\s`));
    await cli(home, 'kill', 'quiet');
    expect((await cli(home, 'ps')).stdout).toMatch(/\bquiet\s+killed[^\n]*\s-\s/);
  });

  test('ps with no processes says how to start one from the CLI', async () => {
    const home = await makeHubHome();
    const empty = await cli(home, 'ps');
    expect(empty.stdout).toBe('No processes. Start one: hub-mcp start --name web -- npm run dev\n');
  });
});
