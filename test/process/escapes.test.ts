// Escapes and edges of process supervision: a child that leaves the keeper's group, a keeper
// killed alone, exit files under a permissive umask, inputs the OS refuses, a spawn that fails.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, onTestFinished, test, vi } from 'vitest';
import { hubPaths } from '../../src/core/paths.js';
import { createProcessManager } from '../../src/process/manager.js';
import { silentLogger } from '../../src/core/logger.js';
import { openStore } from '../../src/store/store.js';
import { makeHubHome } from '../helpers/home.js';
import { groupMembers, isAlive } from '../helpers/processes.js';
import { reapKeepers } from '../helpers/keepers.js';
import { renderKill } from '../../src/process/render.js';
import { toProcessView } from '../../src/process/view.js';

const never = new AbortController().signal;

async function managerIn(home: string) {
  const paths = hubPaths(home);
  const manager = createProcessManager({
    paths,
    store: openStore(paths),
    log: silentLogger,
    maxRunning: 64,
    logCapBytes: 1024 * 1024,
    logReadBytes: 64 * 1024,
  });
  onTestFinished(() => manager.close());
  return { paths, manager };
}

const statField = (pid: number, index: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[index]);
};
const pgidOf = (pid: number): number => statField(pid, 2);
const sidOf = (pid: number): number => statField(pid, 3);

describe('escapes', () => {
  test('a child that left the group with setpgid is stopped with it, through the keeper session', async () => {
    const home = await makeHubHome();
    const { manager } = await managerIn(home);
    // `set -m`: bash puts its background job in a process group of its own (setpgid).
    const { record } = await manager.start(
      { command: 'bash', args: ['-c', 'set -m; sleep 300 & echo "escaped $!"; wait'] },
      { pattern: /escaped \d+/, timeoutMs: 10_000 },
      never,
    );
    const escapee = Number(/escaped (\d+)/.exec(readFileSync(record.logFile, 'utf8'))?.[1]);
    onTestFinished(() => {
      if (isAlive(escapee)) process.kill(escapee, 'SIGKILL');
    });
    expect(pgidOf(escapee)).not.toBe(record.pid);
    const outcome = await manager.kill({ reference: record.id, signal: 'SIGTERM', graceMs: 5_000, remove: false });
    expect(outcome.escapedMembers).toBe(1);
    expect(isAlive(escapee)).toBe(false);
    expect(groupMembers(record.pid)).toEqual([]);
  });

  // `setsid -f` forks a child that makes a session of its own: nothing in /proc ties it to the
  // keeper but HUB_PROCESS_ID in its environment.
  const SETSID_LINE = `setsid -f sh -c 'echo "daemon $$"; exec sleep 1000'`;

  const daemonOf = async (logFile: string): Promise<number> => {
    const pid = await vi.waitFor(
      () => {
        const found = /daemon (\d+)/.exec(readFileSync(logFile, 'utf8'))?.[1];
        expect(found).toBeDefined();
        return Number(found);
      },
      { timeout: 10_000, interval: 20 },
    );
    onTestFinished(() => {
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    });
    return pid;
  };

  test('a child that left the session with setsid is found by its mark and stopped with the process', async () => {
    const home = await makeHubHome();
    onTestFinished(() => reapKeepers(home));
    const { manager } = await managerIn(home);
    const { record } = await manager.start(
      { command: 'sh', args: ['-c', `${SETSID_LINE}; sleep 300`] },
      { pattern: /daemon \d+/, timeoutMs: 10_000 },
      never,
    );
    const daemon = await daemonOf(record.logFile);
    expect(sidOf(daemon)).not.toBe(record.pid);
    const outcome = await manager.kill({ reference: record.id, signal: 'SIGTERM', graceMs: 5_000, remove: false });
    expect(isAlive(daemon)).toBe(false);
    expect(outcome).toMatchObject({ alreadyEnded: false, escapedMembers: 1, warning: undefined });
    expect(renderKill(toProcessView(outcome.record), outcome)).toMatch(/1 process group\(s\) that had left its group/);
  });

  test('a setsid child of a process that has already ended is stopped by kill_process', async () => {
    const home = await makeHubHome();
    onTestFinished(() => reapKeepers(home));
    const { manager } = await managerIn(home);
    const { record } = await manager.start({ command: 'sh', args: ['-c', SETSID_LINE] }, undefined, never);
    const daemon = await daemonOf(record.logFile);
    await vi.waitFor(async () => expect((await manager.get(record.id)).status).toBe('exited'), {
      timeout: 10_000,
      interval: 50,
    });
    expect(isAlive(daemon)).toBe(true);
    const outcome = await manager.kill({ reference: record.id, signal: 'SIGTERM', graceMs: 5_000, remove: false });
    expect(isAlive(daemon)).toBe(false);
    expect(outcome).toMatchObject({ alreadyEnded: true, signalSent: 'SIGTERM', escapedMembers: 1 });
  });

  test('a keeper killed alone: the record stays running while the command runs, and kill_process stops it', async () => {
    const home = await makeHubHome();
    const { manager } = await managerIn(home);
    const { record } = await manager.start({ command: 'sleep', args: ['300'] }, undefined, never);
    // The keeper makes the stdin FIFO before it runs the command: wait until the command is there.
    const command = await vi.waitFor(
      () => {
        const found = groupMembers(record.pid).find(
          pid => pid !== record.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('sleep'),
        );
        expect(found).toBeDefined();
        return found;
      },
      { timeout: 5_000, interval: 20 },
    );
    process.kill(record.pid, 'SIGKILL');
    await vi.waitFor(() => expect(isAlive(record.pid)).toBe(false), { timeout: 5_000, interval: 20 });
    expect(isAlive(command ?? 0)).toBe(true);
    expect(await manager.get(record.id)).toMatchObject({ status: 'running' });
    const outcome = await manager.kill({ reference: record.id, signal: 'SIGTERM', graceMs: 5_000, remove: false });
    expect(outcome).toMatchObject({ alreadyEnded: false });
    expect(outcome.record.status).toBe('killed');
    expect(isAlive(command ?? 0)).toBe(false);
  });
});

describe('edges', () => {
  test('the exit file is 0600 even under umask 000', async () => {
    const home = await makeHubHome();
    const { manager, paths } = await managerIn(home);
    const previous = process.umask(0);
    onTestFinished(() => void process.umask(previous));
    const { record } = await manager.start({ command: 'true', args: [] }, undefined, never);
    await vi.waitFor(() => expect(existsSync(paths.processExitFile(record.id))).toBe(true), {
      timeout: 5_000,
      interval: 20,
    });
    expect(statSync(paths.processExitFile(record.id)).mode & 0o777).toBe(0o600);
  });

  test('a NUL byte or an overlong path names its field as invalid input, and nothing is started', async () => {
    const home = await makeHubHome();
    const { manager } = await managerIn(home);
    await expect(manager.start({ command: 'true', cwd: '/tmp\0x' }, undefined, never)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/Field "cwd"/),
    });
    await expect(
      manager.start({ command: 'true', cwd: `/tmp/${'a'.repeat(5_000)}` }, undefined, never),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/Field "cwd"/) });
    await expect(
      manager.start({ command: 'true', cwd: `/tmp/${'a'.repeat(300)}` }, undefined, never),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/Field "cwd"/) });
    await expect(manager.start({ command: 'true', env: { GOOD: 'a\0b' } }, undefined, never)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/Field "env\.GOOD"/),
    });
    await expect(manager.start({ command: 'echo', args: ['a\0b'] }, undefined, never)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/Field "args\[0\]"/),
    });
    expect(await manager.list()).toEqual([]);
  });

  test('a spawn the system refuses leaves no record and no log file, with a short error', async () => {
    const home = await makeHubHome();
    onTestFinished(() => reapKeepers(home));
    const { manager, paths } = await managerIn(home);
    // One argument over MAX_ARG_STRLEN (128 KB): execve fails with E2BIG.
    const error: unknown = await manager.start({ command: 'echo', args: ['x'.repeat(200_000)] }, undefined, never).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'SPAWN_FAILED' });
    expect((error as Error).message.length).toBeLessThan(1_000);
    expect(await manager.list()).toEqual([]);
    expect(readdirSync(paths.processLogsDir)).toEqual([]);
  });
});
