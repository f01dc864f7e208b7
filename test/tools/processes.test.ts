// The five process tools through a real MCP client (hub in-process over a linked transport):
// results match their output schemas, bad input is a clear `CODE: message` naming the field,
// and hub and its store survive every bad call.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, onTestFinished, test, vi } from 'vitest';
import { makeHubHome } from '../helpers/home.js';
import { fixture, startHubInProcess, textOf, type HubSession } from '../helpers/hub.js';

async function hubIn(home: string): Promise<HubSession> {
  const hub = await startHubInProcess(home);
  onTestFinished(() => hub.close());
  return hub;
}

const ok = (result: CallToolResult): Record<string, unknown> => {
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent as Record<string, unknown>;
};

const processOf = (result: CallToolResult) =>
  ok(result).process as { id: string; pid: number; status: string; exitCode?: number | null };

describe('process tools', () => {
  test('start with wait_for pattern, read logs by tail, grep and cursor, then kill by name', async () => {
    const hub = await hubIn(await makeHubHome());
    const port = ok(await hub.call('get_free_port', {})).port as number;
    const started = await hub.call('start_process', {
      command: process.execPath,
      args: [fixture('process-http-server.mjs'), String(port)],
      name: 'web',
      tags: ['dev'],
      wait_for: { pattern: 'listening on \\d+' },
    });
    expect(ok(started)).toMatchObject({
      ready: true,
      reason: 'pattern',
      process: { name: 'web', status: 'running', ports: [], tags: ['dev'] },
    });
    expect(textOf(started)).toContain('listening on');
    // The first tick follows "listening on" by up to 100 ms: wait until the log has two lines.
    let tail = await hub.call('get_process_logs', { id: 'web', lines: 2 });
    await vi.waitFor(
      async () => {
        tail = await hub.call('get_process_logs', { id: 'web', lines: 2 });
        expect(ok(tail)).toMatchObject({ status: 'running', lines: 2 });
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(textOf(tail).split('\n')).toHaveLength(2);
    const grepped = await hub.call('get_process_logs', { id: 'web', grep: '^listening' });
    expect(textOf(grepped)).toBe(`listening on ${port}`);
    const cursor = ok(tail).next_cursor as number;
    await fetch(`http://127.0.0.1:${port}/follow-me`);
    let seen = '';
    for (let next = cursor; !seen.includes('request /follow-me');) {
      const since = await hub.call('get_process_logs', { id: 'web', cursor: next });
      next = ok(since).next_cursor as number;
      seen += textOf(since);
      expect(textOf(since)).not.toContain('listening on');
    }
    expect(ok(await hub.call('list_processes', { tag: 'dev' }))).toMatchObject({ total: 1, running: 1 });
    const killed = await hub.call('kill_process', { id: 'web' });
    expect(ok(killed)).toMatchObject({
      already_ended: false,
      escalated: false,
      process: { status: 'killed', signal: 'SIGTERM' },
    });
    expect(ok(await hub.call('list_processes', { status: 'running' }))).toMatchObject({ total: 0 });
  });

  test('wait_for reports exited and timeout, and the process keeps running after a timeout', async () => {
    const hub = await hubIn(await makeHubHome());
    expect(
      ok(await hub.call('start_process', { command: 'echo bye; exit 4', wait_for: { pattern: 'never' } })),
    ).toMatchObject({ ready: false, reason: 'exited', process: { status: 'exited', exitCode: 4 }, log_tail: ['bye'] });
    const slow = await hub.call('start_process', {
      command: 'sleep',
      args: ['30'],
      wait_for: { pattern: 'never', timeout_ms: 300 },
    });
    expect(ok(slow)).toMatchObject({ ready: false, reason: 'timeout', process: { status: 'running' } });
    expect(ok(await hub.call('kill_process', { id: processOf(slow).id, remove: true }))).toMatchObject({
      removed: true,
    });
  });

  test('names are unique among running processes, and the running limit holds', async () => {
    const home = await makeHubHome();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ maxRunningProcesses: 2 }));
    const hub = await hubIn(home);
    ok(await hub.call('start_process', { command: 'sleep', args: ['30'], name: 'one' }));
    expect(textOf(await hub.call('start_process', { command: 'sleep', args: ['30'], name: 'one' }))).toMatch(
      /^ALREADY_EXISTS: Field "name"/,
    );
    ok(await hub.call('start_process', { command: 'sleep', args: ['30'] }));
    expect(textOf(await hub.call('start_process', { command: 'sleep', args: ['30'] }))).toMatch(/^LIMIT: /);
    ok(await hub.call('kill_process', { id: 'one', signal: 'SIGKILL' }));
    // Free again, and the name may be reused once its process ended.
    ok(await hub.call('start_process', { command: 'sleep', args: ['30'], name: 'one' }));
  });

  test('get_free_port honours a free preferred port and never hands the same port out twice within 30 s', async () => {
    const home = await makeHubHome();
    const hub = await hubIn(home);
    const other = await hubIn(home);
    const first = ok(await hub.call('get_free_port', { preferred: [(0xbeef % 50_000) + 10_000] }));
    expect(first.preferred_granted).toBe(true);
    const again = ok(await other.call('get_free_port', { preferred: first.port }));
    expect(again.port).not.toBe(first.port);
    expect(again.preferred_granted).toBe(false);
    // Declared by a running process: not handed out either.
    const declared = ok(await hub.call('get_free_port', {})).port as number;
    const db = JSON.parse(readFileSync(join(home, 'db.json'), 'utf8')) as { reservations: Record<string, number> };
    expect(Object.keys(db.reservations)).toEqual(
      expect.arrayContaining([String(first.port), String(again.port), String(declared)]),
    );
  });

  test('bad input to every tool is an isError result naming the field; hub and db.json survive', async () => {
    const home = await makeHubHome();
    const hub = await hubIn(home);
    const id = processOf(await hub.call('start_process', { command: 'sleep', args: ['30'], name: 'keep' })).id;
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['start_process', {}, /^INVALID_INPUT: .*"command"/],
      ['start_process', { command: 42 }, /^INVALID_INPUT: .*"command"/],
      ['start_process', { command: 'x', bogus: 1 }, /^INVALID_INPUT: .*unknown field "bogus"/],
      ['start_process', { command: 'x', args: 'not-an-array' }, /^INVALID_INPUT: .*"args"/],
      ['start_process', { command: 'sleep', args: ['1'], cwd: '/no/such/dir' }, /^INVALID_INPUT: Field "cwd"/],
      ['start_process', { command: 'no-such-program-xyz', args: [] }, /^SPAWN_FAILED: Field "command"/],
      ['start_process', { command: 'no-such-program-xyz --flag' }, /^SPAWN_FAILED: Field "command"/],
      ['start_process', { command: 'cd / && no-such-program-xyz' }, /^SPAWN_FAILED: Field "command".*exit 127/],
      ['start_process', { command: 'x', name: '../evil' }, /^INVALID_INPUT: .*"name"/],
      ['start_process', { command: 'x', name: id }, /^INVALID_INPUT: .*"name"/],
      ['start_process', { command: 'x', env: { 'BAD-KEY': 'v' } }, /^INVALID_INPUT: .*"env/],
      ['start_process', { command: 'x', ports: [70_000] }, /^INVALID_INPUT: .*"ports.0"/],
      [
        'start_process',
        { command: 'x', wait_for: { pattern: '([' } },
        /^INVALID_INPUT: .*"wait_for.pattern": not a valid regular expression/,
      ],
      ['start_process', { command: 'x', wait_for: { timeout_ms: 120_001 } }, /^INVALID_INPUT: .*"wait_for.timeout_ms"/],
      [
        'start_process',
        { command: 'x', wait_for: { port: 1, extra: true } },
        /^INVALID_INPUT: .*unknown field "extra"/,
      ],
      ['list_processes', { status: 'sleeping' }, /^INVALID_INPUT: .*"status"/],
      ['list_processes', { nope: true }, /^INVALID_INPUT: .*unknown field "nope"/],
      ['get_process_logs', {}, /^INVALID_INPUT: .*"id"/],
      ['get_process_logs', { id: '../../etc/passwd' }, /^INVALID_INPUT: .*"id"/],
      ['get_process_logs', { id: 'deadbeef' }, /^NOT_FOUND: .*"deadbeef"/],
      ['get_process_logs', { id, grep: '(' }, /^INVALID_INPUT: .*"grep": not a valid regular expression/],
      ['get_process_logs', { id, lines: 2001 }, /^INVALID_INPUT: .*"lines"/],
      ['get_process_logs', { id, cursor: -1 }, /^INVALID_INPUT: .*"cursor"/],
      ['kill_process', { id: '../x' }, /^INVALID_INPUT: .*"id"/],
      ['kill_process', { id: 'nobody' }, /^NOT_FOUND: .*"nobody"/],
      ['kill_process', { id, signal: 'SIGSTOP' }, /^INVALID_INPUT: .*"signal"/],
      ['kill_process', { id, grace_ms: 'soon' }, /^INVALID_INPUT: .*"grace_ms"/],
      ['get_free_port', { preferred: 'http' }, /^INVALID_INPUT: .*"preferred"/],
      ['get_free_port', { host: 'not a host' }, /^INVALID_INPUT: .*"host"/],
    ];
    for (const [tool, args, expected] of cases) {
      const result = await hub.call(tool, args);
      expect(result.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(textOf(result), `${tool} ${JSON.stringify(args)}`).toMatch(expected);
    }
    expect((await hub.client.listTools()).tools.length).toBeGreaterThanOrEqual(5);
    expect(ok(await hub.call('list_processes', { name: 'keep' }))).toMatchObject({ total: 1, running: 1 });
    const db = JSON.parse(readFileSync(join(home, 'db.json'), 'utf8')) as {
      processes: Record<string, { status: string }>;
    };
    expect(db.processes[id]?.status).toBe('running');
    // The shell-line 127 case is kept as a failed record (its log says why), nothing else was recorded.
    expect(
      Object.values(db.processes)
        .map(record => record.status)
        .sort(),
    ).toEqual(['failed', 'running']);
  });
});
