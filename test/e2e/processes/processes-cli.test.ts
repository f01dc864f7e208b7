// hub ps / logs / kill for people, over the same store the MCP tools write.
import { describe, expect, test } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { startHubInProcess } from '../../helpers/hub.js';
import { cli } from '../../helpers/cli.js';
import { groupMembers } from '../../helpers/processes.js';

describe('hub-mcp ps, logs, kill', () => {
  test('ps shows a table and JSON, logs -f follows until the process ends, kill stops a group', async () => {
    const home = await makeHubHome();
    const hub = await startHubInProcess(home);
    try {
      await hub.call('start_process', {
        command: 'for i in 1 2 3 4 5 6; do echo "count $i"; sleep 0.4; done; exit 2',
        name: 'counter',
      });
      const sleeper = (
        await hub.call('start_process', { command: 'sleep', args: ['60'], name: 'sleeper', ports: [4999] })
      ).structuredContent as { process: { pid: number } };
      const table = await cli(home, 'ps');
      expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+STATUS\s+PID\s+PORTS\s+STARTED\s+COMMAND$/);
      // PORTS shows what a process listens on now: sleep declared 4999 but listens on nothing.
      expect(table.stdout).toMatch(/sleeper\s+running\s+\d+\s+-\s/);
      const followed = await cli(home, 'logs', 'counter', '-f', '-n', '1');
      expect(followed.code).toBe(0);
      expect(followed.stdout.trim().split('\n').at(-1)).toBe('count 6');
      const json = JSON.parse((await cli(home, 'ps', '--json', '--status', 'exited')).stdout) as {
        name: string;
        exitCode: number;
      }[];
      expect(json).toEqual([expect.objectContaining({ name: 'counter', exitCode: 2 })]);
      const killed = await cli(home, 'kill', 'sleeper', '--signal', 'INT', '--json');
      expect(JSON.parse(killed.stdout)).toMatchObject({
        process: { status: 'killed' },
        signal_sent: 'SIGINT',
        escalated: false,
      });
      expect(groupMembers(sleeper.process.pid)).toEqual([]);
      expect(await cli(home, 'kill', '../etc')).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('not a process id or name'),
      });
      expect(await cli(home, 'logs', 'nobody')).toMatchObject({
        code: 1,
        stderr: expect.stringContaining('No process with id or name "nobody"'),
      });
      expect(await cli(home, 'ps', '--status', 'zzz')).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('--status must be one of'),
      });
    } finally {
      await hub.close();
    }
  });

  // Issue 10.15: every id is killed (today the second was ignored); one unknown id fails the
  // command (exit 1) with one readable line, and does not spare the others.
  test('kill a b stops both; an unknown id among them is one error line and exit 1', async () => {
    const home = await makeHubHome();
    const hub = await startHubInProcess(home);
    try {
      const start = async (name: string) =>
        (
          (await hub.call('start_process', { command: 'sleep', args: ['60'], name })).structuredContent as {
            process: { pid: number };
          }
        ).process.pid;
      const [a, b, c] = [await start('a'), await start('b'), await start('c')];
      const both = await cli(home, 'kill', 'a', 'b');
      expect(both.code).toBe(0);
      expect(groupMembers(a)).toEqual([]);
      expect(groupMembers(b)).toEqual([]);
      const mixed = await cli(home, 'kill', 'nobody', 'c', '--json');
      expect(mixed.code).toBe(1);
      expect(mixed.stderr).toMatch(/^hub-mcp kill: No process with id or name "nobody"[^\n]*\n$/);
      expect(JSON.parse(mixed.stdout)).toEqual([
        { reference: 'nobody', error: expect.stringContaining('nobody') },
        expect.objectContaining({ process: expect.objectContaining({ name: 'c', status: 'killed' }) }),
      ]);
      expect(groupMembers(c)).toEqual([]);
    } finally {
      await hub.close();
    }
  });
});
