// hub start / send / attach / restart for people, against the built CLI and real programs.
import { spawn } from 'node:child_process';
import { describe, expect, test, vi } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { SERVER_JS } from '../../helpers/hub.js';
import { cli } from '../../helpers/cli.js';
import { groupMembers } from '../../helpers/processes.js';

describe('hub-mcp start, send, attach, restart', () => {
  test('a REPL started in a terminal answers hub-mcp send, is driven through hub-mcp attach, detaches with Ctrl-] and restarts', async () => {
    const home = await makeHubHome();
    const started = await cli(
      home,
      'start',
      '--name',
      'repl',
      '--tty',
      '--wait-for',
      '^> ',
      '--json',
      '--',
      process.execPath,
      '-i',
    );
    expect(started.code, started.stderr).toBe(0);
    const view = (JSON.parse(started.stdout) as { process: { id: string; pid: number; tty: object } }).process;
    expect(view.tty).toEqual({ cols: 120, rows: 30 });

    const sent = await cli(home, 'send', 'repl', '6*7', '--wait-for', '^42$');
    expect(sent.stdout.split('\n')).toContain('42');

    const attached = spawn(process.execPath, [SERVER_JS, 'attach', 'repl'], {
      env: { ...process.env, HUB_HOME: home },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    attached.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    attached.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    await vi.waitFor(() => expect(err).toContain('Ctrl-] detaches'), { timeout: 10_000 });
    // The screen as it was: the earlier answer is on it.
    expect(out).toContain('42');
    attached.stdin.write('7*8\r');
    await vi.waitFor(() => expect(out).toContain('56'), { timeout: 10_000 });
    attached.stdin.write(Buffer.from([0x1d]));
    const code = await new Promise<number | null>(resolve => attached.once('exit', resolve));
    expect(code).toBe(0);
    expect(err).toContain('detached');
    expect((await cli(home, 'ps')).stdout).toMatch(/repl\s+running/);

    const restarted = await cli(home, 'restart', 'repl');
    expect(restarted.stdout).toMatch(/^Restarted \w+ \(restart 1\), running/);
    const usage = await cli(home, 'start', '--name', 'x');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/Give the command after --/);
    await cli(home, 'kill', 'repl', '--grace', '1000');
    expect(groupMembers(view.pid)).toEqual([]);
  }, 60_000);
});
