// Inputs that froze hub in the adversarial run (issue 11.5), kept as attacks: a regex bomb in
// get_process_logs grep and in wait_for.pattern (against a real hub process over stdio, so a
// frozen hub shows as an unanswered request, not as a frozen test), an unfinished last line far
// larger than any read budget (a `\r` progress bar), and an output flood. HUB_SOAK=1 runs the
// 50 MB versions.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, onTestFinished, test, vi } from 'vitest';
import { compileLinePattern } from '../../../src/process/logs/line-match.js';
import { readLogSince, tailLog } from '../../../src/process/logs/read.js';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, startHubInProcess, textOf, type HubSession } from '../../helpers/hub.js';

const SOAK = process.env.HUB_SOAK === '1';
if (SOAK) vi.setConfig({ testTimeout: 300_000 });
// A 40-character run of "a" before a non-matching end: 2^40 steps for a backtracking engine.
const BOMB_LINE = `${'a'.repeat(40)}!`;
// Generous: the answer takes milliseconds; only a frozen hub misses it.
const ANSWER_WITHIN_MS = 20_000;

const ok = (result: CallToolResult): Record<string, unknown> => {
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent as Record<string, unknown>;
};

async function hubOver(kind: 'stdio' | 'in-process'): Promise<HubSession> {
  const home = await makeHubHome();
  const hub = kind === 'stdio' ? await spawnHub(home) : await startHubInProcess(home);
  onTestFinished(() => hub.close());
  return hub;
}

const callWithin = (hub: HubSession, name: string, args: Record<string, unknown>) =>
  hub.client.callTool({ name, arguments: args }, undefined, { timeout: ANSWER_WITHIN_MS }) as Promise<CallToolResult>;

// A process that prints its lines and then waits to be killed.
const printer = (lines: string[]) => ({
  command: process.execPath,
  args: ['-e', `process.stdout.write(${JSON.stringify(lines.join('\n') + '\n')}); setInterval(() => {}, 1000);`],
});

describe('regex bombs', () => {
  test('get_process_logs grep "(a+)+$" on a 41-character line answers, and hub stays responsive', async () => {
    const hub = await hubOver('stdio');
    const started = ok(
      await callWithin(hub, 'start_process', { ...printer([BOMB_LINE, 'aaa']), wait_for: { pattern: '^aaa' } }),
    );
    const id = (started.process as { id: string }).id;
    const grepped = await callWithin(hub, 'get_process_logs', { id, grep: '(a+)+$' });
    expect(textOf(grepped)).toBe('aaa');
    expect(ok(await callWithin(hub, 'list_processes', {}))).toMatchObject({ running: 1 });
  });

  test('wait_for.pattern "(a+)+$" past a bomb line matches the next line, and hub stays responsive', async () => {
    const hub = await hubOver('stdio');
    const started = await callWithin(hub, 'start_process', {
      ...printer([BOMB_LINE, BOMB_LINE, 'aaaa']),
      wait_for: { pattern: '(a+)+$' },
    });
    expect(ok(started)).toMatchObject({ ready: true, reason: 'pattern' });
    expect(ok(await callWithin(hub, 'list_processes', {}))).toMatchObject({ running: 1 });
  });

  test('lookaround and backreferences are INVALID_INPUT naming the field and what to use instead', async () => {
    const hub = await hubOver('in-process');
    const started = ok(await hub.call('start_process', printer(['x'])));
    const id = (started.process as { id: string }).id;
    const lookahead = await hub.call('get_process_logs', { id, grep: 'error(?!: ignored)' });
    expect(lookahead.isError).toBe(true);
    expect(textOf(lookahead)).toMatch(/INVALID_INPUT.*grep.*lookaround.*RE2/s);
    const backreference = await hub.call('start_process', { command: 'true', wait_for: { pattern: '(\\w)\\1' } });
    expect(backreference.isError).toBe(true);
    expect(textOf(backreference)).toMatch(/INVALID_INPUT.*wait_for\.pattern.*backreference/s);
    expect(() => compileLinePattern('(?<=a)b', '--grep')).toThrow(/--grep: uses lookaround/);
    // Everyday JavaScript syntax keeps working.
    expect(compileLinePattern('(?<port>\\d{2,5})/ready', 'grep').test('on 5173/ready')).toBe(true);
  });
});

describe('an unfinished last line larger than every read budget', () => {
  const megabytes = SOAK ? 50 : 8;

  test(`a ${megabytes} MB \\r progress bar shows its tail, with and without grep`, async () => {
    const file = join(await makeHubHome(), 'progress.log');
    const step = (n: number) => `progress ${String(n).padStart(8, '0')}%\r`;
    const count = Math.ceil((megabytes * 1024 * 1024) / step(0).length);
    writeFileSync(file, `started\n${Array.from({ length: count }, (_, n) => step(n)).join('')}`);
    const maxBytes = 64 * 1024;
    const tail = tailLog(file, { lines: 100, maxBytes });
    expect(tail.lines).toHaveLength(1);
    expect(tail.lines[0]).toMatch(/^…/);
    expect(tail.lines[0]).toContain(`progress ${String(count - 1).padStart(8, '0')}%`);
    expect(Buffer.byteLength(tail.lines[0] ?? '')).toBeLessThanOrEqual(maxBytes + 3);
    const grepped = tailLog(file, { lines: 10, maxBytes, grep: compileLinePattern('progress \\d+%', 'grep') });
    expect(grepped.lines[0]).toContain(`progress ${String(count - 1).padStart(8, '0')}%`);
    // From a cursor, the line comes in bounded pieces.
    const since = readLogSince(file, { lines: 10, maxBytes, cursor: 8, holdPartialLine: true });
    expect(Buffer.byteLength(since.lines.join('\n'))).toBeLessThanOrEqual(maxBytes);
    expect(since.nextCursor).toBeGreaterThan(8);
  });

  test('through get_process_logs and wait_for: a process printing an endless \\r line, then READY', async () => {
    const hub = await hubOver('stdio');
    const bytes = (SOAK ? 50 : 4) * 1024 * 1024;
    const script = `const bar = 'x'.repeat(1023) + '\\r'; let left = ${bytes}; (function more() { while (left > 0 && process.stdout.write(bar)) left -= bar.length; if (left > 0) process.stdout.once('drain', more); else { process.stdout.write('READY'); setInterval(() => {}, 1000); } })();`;
    const started = await callWithin(hub, 'start_process', {
      command: process.execPath,
      args: ['-e', script],
      wait_for: { pattern: 'READY', timeout_ms: 60_000 },
    });
    expect(ok(started)).toMatchObject({ ready: true, reason: 'pattern' });
    const id = (ok(started).process as { id: string }).id;
    const logs = await callWithin(hub, 'get_process_logs', { id });
    // As a terminal shows it: READY over the last frame of x's, not megabytes of frames.
    expect(textOf(logs)).toMatch(/^…READYx{1018}$/);
    expect(textOf(logs)).not.toContain('[hub: no output]');
  });
});

describe('output flood', () => {
  test('a process writing lines as fast as it can does not stall hub', async () => {
    const hub = await hubOver('stdio');
    const script = `const line = 'flood '.repeat(20) + '\\n'; (function more() { while (process.stdout.write(line)); process.stdout.once('drain', more); })();`;
    const started = ok(
      await callWithin(hub, 'start_process', {
        command: process.execPath,
        args: ['-e', script],
        wait_for: { pattern: '^flood', timeout_ms: 30_000 },
      }),
    );
    const id = (started.process as { id: string }).id;
    for (let round = 0; round < (SOAK ? 200 : 10); round += 1) {
      const logs = ok(await callWithin(hub, 'get_process_logs', { id, lines: 50, grep: 'fl(o+)+d' }));
      expect(logs.lines).toBeGreaterThan(0);
      expect(ok(await callWithin(hub, 'list_processes', {}))).toMatchObject({ running: 1 });
    }
    expect(ok(await callWithin(hub, 'kill_process', { id, signal: 'SIGKILL' }))).toMatchObject({
      process: { status: 'killed' },
    });
  });
});
