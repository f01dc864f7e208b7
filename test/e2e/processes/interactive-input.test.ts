// The built hub (dist/server.js) over stdio: a terminal and a stdin pipe outlive a SIGKILLed hub
// (the entry and its shared hub) and take input from the next one; a keeper restarts its process while no hub runs.
import { readFileSync } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test, vi } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, textOf } from '../../helpers/hub.js';
import { groupMembers, killHubAndShared } from '../../helpers/processes.js';

const ok = (result: CallToolResult): Record<string, unknown> => {
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent as Record<string, unknown>;
};

describe('interactive processes over stdio', () => {
  test('a REPL in a terminal and one on a pipe take input from a hub started after the first was SIGKILLed', async () => {
    const home = await makeHubHome();
    const first = await spawnHub(home);
    const tty = ok(
      await first.call('start_process', {
        command: process.execPath,
        args: ['-i'],
        name: 'repl',
        tty: true,
        wait_for: { pattern: '^> ' },
      }),
    );
    expect(tty).toMatchObject({ ready: true, process: { tty: { cols: 120, rows: 30 } } });
    const pipe = ok(await first.call('start_process', { command: process.execPath, args: ['-i'], name: 'pipe-repl' }));
    const answer = ok(await first.call('send_input', { id: 'repl', text: '6*7', keys: ['Enter'], wait_for: '^42$' }));
    expect(answer).toMatchObject({ reason: 'pattern' });
    expect(answer.output).toContain('42');
    // The entry and its shared hub: no hub runs until the next one starts.
    expect(await killHubAndShared(first, home)).toBeDefined();

    const second = await spawnHub(home);
    try {
      const again = ok(
        await second.call('send_input', {
          id: 'repl',
          text: '[1,2,3].map(x => x * 7).join("-")',
          keys: ['Enter'],
          wait_for: "'7-14-21'",
        }),
      );
      expect(again.reason).toBe('pattern');
      const screen = ok(await second.call('get_process_screen', { id: 'repl' }));
      expect(screen.lines as string[]).toContain("'7-14-21'");
      expect(screen).toMatchObject({ cols: 120, rows: 30 });
      const piped = ok(await second.call('send_input', { id: 'pipe-repl', text: '6*7\n', wait_for: '42' }));
      expect(piped.output).toMatch(/42/);
      // A second hub on the same HUB_HOME at the same time (in-process, beside the shared one).
      const beside = await spawnHub(home, { env: { HUB_SHARED: 'off' } });
      try {
        const fromBeside = ok(await beside.call('send_input', { id: 'pipe-repl', text: '6*8\n', wait_for: '48' }));
        expect(fromBeside.output).toMatch(/48/);
        const seen = ok(await beside.call('get_process_screen', { id: 'repl' }));
        expect(seen.lines as string[]).toContain("'7-14-21'");
      } finally {
        await beside.close();
      }
      const notTty = await second.call('get_process_screen', { id: 'pipe-repl' });
      expect(notTty.isError).toBe(true);
      expect(textOf(notTty)).toMatch(/Field "id".*no terminal/);
      const badKey = await second.call('send_input', { id: 'repl', keys: ['Nope'] });
      expect(textOf(badKey)).toMatch(/keys\[0\].*unknown key "Nope"/);
      for (const id of ['repl', 'pipe-repl']) ok(await second.call('kill_process', { id, grace_ms: 2_000 }));
      const ended = await second.call('send_input', { id: 'repl', text: 'x' });
      expect(textOf(ended)).toMatch(/^PROCESS_ENDED: Field "id": process "\w+" has ended/);
      expect(groupMembers((tty.process as { pid: number }).pid)).toEqual([]);
      expect(groupMembers((pipe.process as { pid: number }).pid)).toEqual([]);
    } finally {
      await second.close();
    }
  }, 60_000);

  test('restart: always goes on while no hub runs, and the next hub counts the restarts', async () => {
    const home = await makeHubHome();
    const first = await spawnHub(home);
    const started = ok(
      await first.call('start_process', {
        command: 'echo tick; sleep 0.2; exit 1',
        restart: 'always',
        max_restarts: 100,
        name: 'flaky',
      }),
    );
    const view = started.process as { id: string; logFile: string; pid: number };
    expect(await killHubAndShared(first, home)).toBeDefined();
    // No hub runs: the keeper alone restarts it (1 s, then 2 s backoff).
    await vi.waitFor(() => expect(readFileSync(view.logFile, 'utf8')).toContain('[hub: restart 2 (always)'), {
      timeout: 10_000,
      interval: 100,
    });
    const second = await spawnHub(home);
    try {
      const listed = ok(await second.call('list_processes', { name: 'flaky' })).processes as {
        restarts?: number;
        status: string;
      }[];
      expect(listed[0]).toMatchObject({ status: 'running', restart: 'always' });
      expect(listed[0]?.restarts).toBeGreaterThanOrEqual(2);
      const restarted = ok(await second.call('restart_process', { id: 'flaky' }));
      expect(restarted).toMatchObject({ via: 'keeper', status: 'running' });
      ok(await second.call('kill_process', { id: 'flaky', grace_ms: 1_000 }));
      expect(groupMembers(view.pid)).toEqual([]);
    } finally {
      await second.close();
    }
  }, 60_000);

  test("restart_process waits for the new run as wait_for did at the start, not for the old run's ready line", async () => {
    const home = await makeHubHome();
    const hub = await spawnHub(home);
    try {
      // Each run is ready 1 s after it starts, and says which run it is.
      const started = ok(
        await hub.call('start_process', {
          command: 'echo starting; sleep 1; echo "ready at $(date +%s%3N)"; exec sleep 600',
          name: 'slow-web',
          wait_for: { pattern: '^ready at', timeout_ms: 20_000 },
        }),
      );
      expect(started).toMatchObject({ ready: true, reason: 'pattern' });
      const logFile = (started.process as { logFile: string }).logFile;
      const readyLines = () => readFileSync(logFile, 'utf8').match(/^ready at \d+$/gm) ?? [];
      const running = ok(await hub.call('restart_process', { id: 'slow-web', grace_ms: 500 }));
      expect(running).toMatchObject({ via: 'keeper', ready: true, reason: 'pattern' });
      // It returned once the second run had said so, not at once on the first run's line.
      expect(readyLines()).toHaveLength(2);
      // An ended process is respawned under a new keeper and waited for the same way.
      ok(await hub.call('kill_process', { id: 'slow-web', grace_ms: 500 }));
      const respawned = ok(await hub.call('restart_process', { id: 'slow-web' }));
      expect(respawned).toMatchObject({ via: 'respawned', ready: true, reason: 'pattern', restarts: 2 });
      expect(readyLines()).toHaveLength(3);
      // Without wait_for at the start, restart_process returns at once and says nothing of readiness.
      ok(await hub.call('start_process', { command: 'exec sleep 600', name: 'plain' }));
      expect(ok(await hub.call('restart_process', { id: 'plain' }))).not.toHaveProperty('ready');
    } finally {
      await hub.close();
    }
  }, 60_000);
});
