// Interactive processes against real programs: input through the keeper's stdin FIFO, terminals
// held by util-linux script, screens rendered by xterm from the log, keys and signals.
import { readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { stripAnsi } from '../../../src/process/logs/ansi.js';
import { compileLinePattern } from '../../../src/process/logs/line-match.js';
import { descendantsOf } from '../../../src/process/keeper/process-tree.js';
import { makeHubHome } from '../../helpers/home.js';
import { isAlive, managerIn } from '../../helpers/processes.js';

const never = new AbortController().signal;

const send = (text?: string, keys?: string[], waitFor?: string) => ({
  text,
  keys,
  pattern: waitFor === undefined ? undefined : compileLinePattern(waitFor, 'wait_for'),
  idleMs: 300,
  timeoutMs: 15_000,
  lines: 500,
});

const commandLines = (pid: number): string[] =>
  descendantsOf(pid).map(child => {
    try {
      return readFileSync(`/proc/${child}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    } catch {
      return '';
    }
  });

describe('send_input without a terminal (stdin pipe)', () => {
  test('answers two readline questions, one call per answer', async () => {
    const home = await makeHubHome();
    const script = join(home, 'ask.cjs');
    writeFileSync(
      script,
      "const rl = require('readline').createInterface({ input: process.stdin, output: process.stdout });\n" +
        "rl.question('name? ', n => rl.question('color? ', c => { console.log(`hello ${n}, you like ${c}`); rl.close(); process.exit(0); }));\n",
    );
    const { manager } = managerIn(home);
    const { record } = await manager.start(
      { command: process.execPath, args: [script] },
      { pattern: compileLinePattern('name\\?', 'p'), timeoutMs: 10_000 },
      never,
    );
    const first = await manager.send(record.id, send('Ada', ['Enter'], 'color\\?'), never);
    expect(first.outcome.reason).toBe('pattern');
    expect(first.outcome.slice.lines.join('\n')).toContain('color?');
    const second = await manager.send(record.id, send('blue\n', undefined, 'you like'), never);
    expect(second.outcome.slice.lines).toContain('hello Ada, you like blue');
    await vi.waitFor(async () => expect((await manager.get(record.id)).status).toBe('exited'), { timeout: 10_000 });
    await expect(manager.send(record.id, send('x'), never)).rejects.toMatchObject({ code: 'PROCESS_ENDED' });
  });

  // In a terminal too: through script into the pseudo-terminal, whose line discipline holds one
  // line (up to 4095 bytes) at a time and echoes it, so the log gets the paste twice over.
  test.each([false, true])('1 MB pasted in one call arrives whole (tty: %s)', async tty => {
    const home = await makeHubHome();
    const { manager } = managerIn(home);
    const size = 1024 * 1024;
    const { record } = await manager.start(
      {
        command: process.execPath,
        args: [
          '-e',
          `let n=0;const h=require('crypto').createHash('sha256');process.stdin.on('data',d=>{n+=d.length;h.update(d);if(n>=${size})console.log('got',n,h.digest('hex'))})`,
        ],
        tty: tty ? { cols: 80, rows: 24 } : undefined,
      },
      undefined,
      never,
    );
    // 64-byte lines, the last one ended: a terminal hands a line over only once it is ended.
    const line = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ+\n';
    const text = line.repeat(size / line.length);
    const { outcome } = await manager.send(record.id, { ...send(text, undefined, '^got'), timeoutMs: 60_000 }, never);
    expect(outcome.bytesSent).toBe(size);
    expect(outcome.reason).toBe('pattern');
    // In a terminal node colours the number: compared without escape sequences.
    const log = stripAnsi(readFileSync(record.logFile, 'utf8'));
    expect(log).toContain(`got ${size} ${createHash('sha256').update(text).digest('hex')}`);
  });

  test('unknown keys, C-d and a closed stdin are refused naming the field', async () => {
    const home = await makeHubHome();
    const { manager } = managerIn(home);
    const { record } = await manager.start({ command: 'exec 0<&-; sleep 30' }, undefined, never);
    // The shell has closed its stdin once it runs the sleep.
    await vi.waitFor(() => expect(commandLines(record.pid)).toContain('sleep 30'), { timeout: 5_000 });
    await expect(manager.send(record.id, send(undefined, ['Enter', 'Hyper']), never)).rejects.toThrow(
      /Field "keys\[1\]": unknown key "Hyper"/,
    );
    await expect(manager.send(record.id, send(undefined, ['C-d']), never)).rejects.toThrow(
      /keys\[0\].*needs a terminal/,
    );
    await expect(manager.send(record.id, send('hello\n'), never)).rejects.toMatchObject({ code: 'PROCESS_ENDED' });
  });
});

describe('tty processes', () => {
  test('node -i computes 6*7 in a terminal', async () => {
    const home = await makeHubHome();
    const { manager } = managerIn(home);
    const { record } = await manager.start(
      { command: process.execPath, args: ['-i'], tty: { cols: 100, rows: 20 } },
      { pattern: compileLinePattern('^> ', 'p'), timeoutMs: 10_000 },
      never,
    );
    const { outcome } = await manager.send(record.id, send('6*7', ['Enter'], '^42$'), never);
    expect(outcome.reason).toBe('pattern');
    const { screen } = await manager.screen(record.id);
    expect(screen.lines).toContain('42');
  });

  test('C-c interrupts a sleep in bash, which then runs the next command', async () => {
    const home = await makeHubHome();
    const { manager } = managerIn(home);
    const { record } = await manager.start(
      { command: 'bash', args: ['--norc', '--noprofile', '-i'], tty: { cols: 80, rows: 24 } },
      { pattern: compileLinePattern('[$#] $', 'p'), timeoutMs: 10_000 },
      never,
    );
    await manager.send(record.id, send('sleep 30', ['Enter']), never);
    expect(commandLines(record.pid)).toContain('sleep 30');
    await manager.send(record.id, send(undefined, ['C-c']), never);
    await vi.waitFor(() => expect(commandLines(record.pid)).not.toContain('sleep 30'), { timeout: 5_000 });
    const { outcome } = await manager.send(record.id, send('echo after-$((40+2))', ['Enter'], '^after-42'), never);
    expect(outcome.reason).toBe('pattern');
  });

  test('less shows the file on its screen, pages with keys and quits with q', async () => {
    const home = await makeHubHome();
    const file = join(home, 'lines.txt');
    writeFileSync(file, Array.from({ length: 100 }, (_, index) => `line ${index + 1}`).join('\n') + '\n');
    const { manager } = managerIn(home);
    const { record } = await manager.start(
      { command: 'less', args: [file], tty: { cols: 60, rows: 10 }, env: { LESS: '' } },
      undefined,
      never,
    );
    await vi.waitFor(async () => expect((await manager.screen(record.id)).screen.lines[0]).toBe('line 1'), {
      timeout: 10_000,
    });
    const { screen } = await manager.screen(record.id);
    expect(screen.lines.slice(0, 9)).toEqual(Array.from({ length: 9 }, (_, index) => `line ${index + 1}`));
    expect(screen.alternate).toBe(true);
    await manager.send(record.id, send(undefined, ['PageDown']), never);
    await vi.waitFor(async () => expect((await manager.screen(record.id)).screen.lines[0]).toBe('line 10'), {
      timeout: 5_000,
    });
    await manager.send(record.id, send('q'), never);
    await vi.waitFor(async () => expect((await manager.get(record.id)).status).toBe('exited'), { timeout: 5_000 });
  });

  test('screen rows have trailing spaces trimmed, also spaces a program painted (as vi does for ~ rows)', async () => {
    const home = await makeHubHome();
    const { manager } = managerIn(home);
    const { record } = await manager.start(
      { command: "printf 'abc      \\n~                 \\nend\\n'; exec sleep 60", tty: { cols: 40, rows: 5 } },
      { pattern: compileLinePattern('^end', 'p'), timeoutMs: 10_000 },
      never,
    );
    const { screen } = await manager.screen(record.id);
    expect(screen.lines.slice(0, 3)).toEqual(['abc', '~', 'end']);
  });

  test('resize reaches the program as SIGWINCH and the screen takes the new size', async () => {
    const home = await makeHubHome();
    const { manager } = managerIn(home);
    const { record } = await manager.start(
      {
        command: process.execPath,
        args: [
          '-e',
          "console.log('size', process.stdout.columns, process.stdout.rows); process.stdout.on('resize', () => console.log('size', process.stdout.columns, process.stdout.rows)); setInterval(() => {}, 1000)",
        ],
        tty: { cols: 100, rows: 20 },
      },
      { pattern: compileLinePattern('^size 100 20', 'p'), timeoutMs: 10_000 },
      never,
    );
    const { outcome, record: resized } = await manager.send(
      record.id,
      { ...send(undefined, undefined, '^size 70 15'), resize: { cols: 70, rows: 15 } },
      never,
    );
    expect(outcome.reason).toBe('pattern');
    expect(resized.tty).toEqual({ cols: 70, rows: 15 });
    // Rows below the text are left out: the last one returned is the last written.
    const { lines } = (await manager.screen(record.id)).screen;
    expect(lines.length).toBeLessThanOrEqual(15);
    expect(lines.at(-1)).toMatch(/^size 70 15/);
  });
});

describe('tty processes and the rest of hub', () => {
  test('kill_process stops what runs in the terminal even when it ignores SIGHUP and SIGTERM', async () => {
    const home = await makeHubHome();
    const { manager } = managerIn(home);
    const { record } = await manager.start(
      { command: "trap '' HUP TERM; echo armed; sleep 300", tty: { cols: 80, rows: 24 } },
      { pattern: compileLinePattern('^armed', 'p'), timeoutMs: 10_000 },
      never,
    );
    // "armed" is printed before sleep starts: wait for it (a ps snapshot may also predate it).
    await vi.waitFor(() => expect(commandLines(record.pid)).toContain('sleep 300'), { timeout: 10_000 });
    const inTerminal = descendantsOf(record.pid);
    const outcome = await manager.kill({ reference: record.id, signal: 'SIGTERM', graceMs: 500, remove: false });
    expect(outcome).toMatchObject({ escalated: true, record: { status: 'killed' } });
    // The terminal's session is where a tty command runs: stopped, but not reported as escaped.
    expect(outcome.escapedMembers).toBe(0);
    for (const pid of inTerminal) expect(isAlive(pid), `pid ${pid}`).toBe(false);
  });

  test('a keeper whose record was lost is found again with its terminal size and restart policy', async () => {
    const home = await makeHubHome();
    const first = managerIn(home);
    const { record } = await first.manager.start(
      { command: 'cat', args: [], tty: { cols: 90, rows: 25 }, restart: { policy: 'always', max: 3 } },
      undefined,
      never,
    );
    await first.store.update(data => {
      delete data.processes[record.id];
    });
    const second = managerIn(home);
    const found = (await second.manager.list()).find(view => view.id === record.id);
    expect(found).toMatchObject({
      status: 'running',
      tty: { cols: 90, rows: 25 },
      restart: { policy: 'always', max: 3 },
    });
    expect(found?.recoveredAt).toBeDefined();
    expect((await second.manager.send(record.id, send('again', ['Enter'], '^again'), never)).outcome.reason).toBe(
      'pattern',
    );
  });
});
