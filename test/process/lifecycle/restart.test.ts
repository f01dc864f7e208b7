// Restarts: the keeper's policy (backoff, crash loop → failed) and restart_process, on a live
// keeper and on an ended record, with the log continued after a marker line.
import { readFileSync } from 'node:fs';
import { describe, expect, test, vi } from 'vitest';
import { compileLinePattern } from '../../../src/process/logs/line-match.js';
import { makeHubHome } from '../../helpers/home.js';
import { groupMembers, managerIn } from '../../helpers/processes.js';
import { stripAnsi } from '../../../src/process/logs/ansi.js';

const never = new AbortController().signal;

const markers = (logFile: string): string[] =>
  readFileSync(logFile, 'utf8')
    .split('\n')
    .filter(line => line.startsWith('[hub: restart'));

describe('restart policies (done by the keeper)', () => {
  test('on-failure brings a crashing process back with backoff, then marks it failed', async () => {
    const { manager } = managerIn(await makeHubHome());
    const started = Date.now();
    const { record } = await manager.start(
      { command: 'echo run $(date +%s%3N); exit 3', restart: { policy: 'on-failure', max: 2 } },
      undefined,
      never,
    );
    await vi.waitFor(async () => expect((await manager.get(record.id)).status).toBe('failed'), {
      timeout: 15_000,
      interval: 100,
    });
    const ended = await manager.get(record.id);
    expect(ended).toMatchObject({ exitCode: 3, restarts: 2 });
    expect(ended.error).toMatch(/crash loop: exit code 3 after 2 restarts in a row/);
    expect(markers(record.logFile)).toEqual([
      '[hub: restart 1 (on-failure) after exit code 3]',
      '[hub: restart 2 (on-failure) after exit code 3]',
    ]);
    // Backoff 1 s, then 2 s: the runs are spaced by the keeper, not by hub.
    const runs = readFileSync(record.logFile, 'utf8')
      .split('\n')
      .filter(line => line.startsWith('run '))
      .map(line => Number(line.slice(4)));
    expect(runs).toHaveLength(3);
    expect(runs[1]! - runs[0]!).toBeGreaterThanOrEqual(900);
    expect(runs[2]! - runs[1]!).toBeGreaterThanOrEqual(1_900);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
  });

  test('on-failure does not restart a clean exit; kill_process stops a restarting process for good', async () => {
    const { manager } = managerIn(await makeHubHome());
    const clean = await manager.start(
      { command: 'exit 0', restart: { policy: 'on-failure', max: 5 } },
      { timeoutMs: 5_000 },
      never,
    );
    expect(await manager.get(clean.record.id)).toMatchObject({ status: 'exited', exitCode: 0 });
    const looping = await manager.start(
      { command: 'sleep 0.2; exit 1', restart: { policy: 'always', max: 100 } },
      undefined,
      never,
    );
    await vi.waitFor(async () => expect((await manager.get(looping.record.id)).restarts).toBeGreaterThanOrEqual(1), {
      timeout: 10_000,
    });
    const killed = await manager.kill({
      reference: looping.record.id,
      signal: 'SIGTERM',
      graceMs: 2_000,
      remove: false,
    });
    expect(killed.record.status).toBe('killed');
    expect(groupMembers(looping.record.pid)).toEqual([]);
  });
});

describe('restart_process', () => {
  test('a running process is rerun by its keeper: same record and pid, new command, log continued', async () => {
    const { manager } = managerIn(await makeHubHome());
    const { record } = await manager.start(
      { command: "trap 'echo bye; exit 0' TERM; echo hello $$; while :; do sleep 0.1; done", name: 'web' },
      { pattern: compileLinePattern('^hello', 'p'), timeoutMs: 5_000 },
      never,
    );
    const outcome = await manager.restart('web', 5_000);
    expect(outcome.via).toBe('keeper');
    expect(outcome.record).toMatchObject({ id: record.id, pid: record.pid, status: 'running', restarts: 1 });
    await vi.waitFor(() => expect(readFileSync(record.logFile, 'utf8').match(/^hello/gm)).toHaveLength(2), {
      timeout: 10_000,
      interval: 50,
    });
    const log = readFileSync(record.logFile, 'utf8');
    expect(log).toMatch(/bye\n\[hub: restart 1 \(requested\) after exit code 0\]\nhello/);
  });

  test('an ended process is respawned under the same record with its env', async () => {
    const { manager } = managerIn(await makeHubHome());
    const { record } = await manager.start(
      { command: 'echo "secret=$SECRET"; exit 4', env: { SECRET: 's3' }, name: 'job' },
      { timeoutMs: 5_000 },
      never,
    );
    expect(await manager.get(record.id)).toMatchObject({ status: 'exited', exitCode: 4 });
    const outcome = await manager.restart(record.id, 1_000);
    expect(outcome.via).toBe('respawned');
    expect(outcome.record).toMatchObject({ id: record.id, name: 'job', restarts: 1 });
    await vi.waitFor(async () => expect((await manager.get(record.id)).status).toBe('exited'), {
      timeout: 10_000,
      interval: 50,
    });
    expect(readFileSync(record.logFile, 'utf8')).toBe(
      'secret=s3\n[hub: restart 1 (requested) after exit code 4]\nsecret=s3\n',
    );
    expect((await manager.list()).find(view => view.id === record.id)).toMatchObject({ restarts: 1, exitCode: 4 });
  });
});

// A command that takes 3 s to shut down on SIGTERM: longer than util-linux script's own
// SIGTERM-then-SIGKILL 2 s after it is signalled, shorter than the grace given.
const SLOW_EXIT = "trap 'sleep 3; echo clean-exit; exit 0' TERM; echo ready; while :; do sleep 0.1; done";

describe('tty processes stop and restart as the command does', () => {
  test('kill_process waits out grace_ms for a command in a terminal (script does not SIGKILL it after 2 s)', async () => {
    const { manager } = managerIn(await makeHubHome());
    const { record } = await manager.start(
      { command: 'bash', args: ['-c', SLOW_EXIT], tty: { cols: 80, rows: 24 } },
      { pattern: compileLinePattern('^ready', 'p'), timeoutMs: 10_000 },
      never,
    );
    const killed = await manager.kill({ reference: record.id, signal: 'SIGTERM', graceMs: 20_000, remove: false });
    expect(killed).toMatchObject({ escalated: false, record: { status: 'killed' } });
    const log = readFileSync(record.logFile, 'utf8');
    expect(log).toContain('clean-exit');
    expect(log).not.toContain('Session terminated');
    expect(groupMembers(record.pid)).toEqual([]);
  });

  test("restart_process lets a terminal's command shut down in its grace and reports its exit code", async () => {
    const { manager } = managerIn(await makeHubHome());
    const { record } = await manager.start(
      { command: 'bash', args: ['-c', SLOW_EXIT], tty: { cols: 80, rows: 24 }, name: 'slow' },
      { pattern: compileLinePattern('^ready', 'p'), timeoutMs: 10_000 },
      never,
    );
    expect((await manager.restart('slow', 20_000)).via).toBe('keeper');
    await vi.waitFor(() => expect(readFileSync(record.logFile, 'utf8').match(/ready/g)).toHaveLength(2), {
      timeout: 10_000,
    });
    const log = stripAnsi(readFileSync(record.logFile, 'utf8'));
    expect(log).toContain('clean-exit');
    expect(log).not.toContain('Session terminated');
    expect(markers(record.logFile)).toEqual(['[hub: restart 1 (requested) after exit code 0]\r']);
    await manager.kill({ reference: record.id, signal: 'SIGKILL', graceMs: 0, remove: false });
  });
});

describe('the restart marker starts a line of its own', () => {
  test('after a prompt with no newline, from the keeper and from a respawn', async () => {
    const { manager } = managerIn(await makeHubHome());
    const { record } = await manager.start(
      {
        command: process.execPath,
        args: [
          '-e',
          "process.stdout.write('prompt> '); process.on('SIGTERM', () => process.exit(0)); setInterval(() => {}, 1000)",
        ],
        name: 'asks',
      },
      { pattern: compileLinePattern('^prompt> ', 'p'), timeoutMs: 5_000 },
      never,
    );
    const prompts = (count: number) =>
      vi.waitFor(() => expect(readFileSync(record.logFile, 'utf8').match(/prompt> /g)).toHaveLength(count), {
        timeout: 10_000,
      });
    expect((await manager.restart('asks', 5_000)).via).toBe('keeper');
    await prompts(2);
    await manager.kill({ reference: 'asks', signal: 'SIGTERM', graceMs: 5_000, remove: false });
    expect((await manager.restart('asks', 5_000)).via).toBe('respawned');
    await prompts(3);
    expect(readFileSync(record.logFile, 'utf8')).toMatch(
      /^prompt> \n\[hub: restart 1 \(requested\) after exit code \d+\]\nprompt> \n\[hub: restart 2 \(requested\) after exit code \d+\]\nprompt> $/,
    );
    await manager.kill({ reference: 'asks', signal: 'SIGKILL', graceMs: 0, remove: false });
  });

  test('in a terminal it is at column 0 of the screen', async () => {
    const { manager } = managerIn(await makeHubHome());
    const { record } = await manager.start(
      { command: process.execPath, args: ['-i'], tty: { cols: 100, rows: 20 }, name: 'repl' },
      { pattern: compileLinePattern('^> ', 'p'), timeoutMs: 10_000 },
      never,
    );
    await manager.restart('repl', 5_000);
    await vi.waitFor(() => expect(readFileSync(record.logFile, 'utf8').match(/Welcome/g)).toHaveLength(2), {
      timeout: 10_000,
    });
    const { screen } = await manager.screen('repl');
    expect(screen.lines.filter(line => line.startsWith('[hub: restart 1 (requested)'))).toHaveLength(1);
    expect(screen.lines.filter(line => line.startsWith('Welcome to Node.js'))).toHaveLength(2);
    await manager.kill({ reference: 'repl', signal: 'SIGKILL', graceMs: 0, remove: false });
  });
});
