// The platform seam (src/core/platform*.ts): which implementation a system gets, the portable
// parsers on recorded macOS outputs (test/fixtures/platform/), and the portable implementation
// checked against /proc on this Linux machine, process by process.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, onTestFinished, test, vi } from 'vitest';
import { choosePlatform } from '../../src/core/platform/platform.js';
import { linuxProcesses } from '../../src/core/platform/linux.js';
import {
  parseBoottime,
  parseEnvListing,
  parseLsof,
  parseLstart,
  parsePsLine,
  parsePsLines,
  parseSigcatch,
  psProcesses,
} from '../../src/core/platform/ps.js';

const recorded = (name: string): string =>
  readFileSync(new URL(`../fixtures/platform/${name}`, import.meta.url), 'utf8');

describe('which platform a system gets', () => {
  test('Linux reads /proc with util-linux tools; HUB_PLATFORM=portable swaps in ps and keeps the tools', () => {
    const linux = choosePlatform('linux', undefined);
    expect([linux.processes.source, linux.tools.flavour, linux.tools.socketPathMax]).toEqual([
      'proc',
      'util-linux',
      107,
    ]);
    expect(linux.unsupported).toBeUndefined();
    const portable = choosePlatform('linux', 'portable');
    expect([portable.processes.source, portable.tools.flavour]).toEqual(['ps', 'util-linux']);
    expect(portable.processes.exact).toBeUndefined();
    expect(portable.unsupported).toBeUndefined();
  });

  test('macOS reads ps with BSD tools: script -q, stty -f, open, 103-byte sockets', () => {
    const mac = choosePlatform('darwin', undefined);
    expect([mac.processes.source, mac.tools.flavour, mac.tools.socketPathMax]).toEqual(['ps', 'bsd', 103]);
    expect(mac.tools.sttyArgs('/dev/ttys004', 80, 24)).toEqual(['-f', '/dev/ttys004', 'cols', '80', 'rows', '24']);
    expect(mac.tools.isTerminal('/dev/ttys004')).toBe(true);
    expect(mac.tools.isTerminal('/dev/ptmx')).toBe(false);
    expect(mac.tools.opener).toEqual({ command: 'open', needsDisplay: false });
    // /proc cannot be forced where there is none.
    expect(choosePlatform('darwin', 'linux').unsupported).toMatch(/HUB_PLATFORM=linux/);
  });

  test('Windows, or a forced unknown value, is unsupported with one clear message', () => {
    const windows = choosePlatform('win32', undefined);
    expect(windows.processes.source).toBe('none');
    expect(windows.unsupported).toBe(
      'Dev processes are not supported on win32 yet: hub runs them on Linux and macOS (docs/platforms.md). Servers, installs and the rest of hub work here.',
    );
    expect(choosePlatform('linux', 'win32').unsupported).toMatch(
      /^Dev processes are not supported on HUB_PLATFORM=win32 yet/,
    );
    // Locks and the shared hub's record still tell a live pid from a gone one.
    expect(windows.processes.identity(process.pid)?.pid).toBe(process.pid);
    expect(windows.processes.processes()).toEqual([]);
  });
});

describe('parsers on recorded macOS outputs', () => {
  test('ps identity lines: pid, ppid, pgid, state, lstart; no session on macOS', () => {
    const list = parsePsLines(recorded('ps-identity.txt'));
    expect(list).toHaveLength(8);
    expect(list[3]).toEqual({
      pid: 5021,
      ppid: 4987,
      pgid: 5021,
      sid: 0,
      state: 'S',
      startTicks: Date.UTC(2025, 10, 28, 9, 15, 40) / 10,
    });
    expect(list.find(identity => identity.pid === 5031)?.state).toBe('Z');
    expect(list.find(identity => identity.pid === 5025)?.pgid).toBe(5025);
  });

  test('ps lines with the command: argv as ps prints it, a keeper found by its exit file', () => {
    const lines = recorded('ps-command.txt').split('\n').filter(Boolean);
    const parsed = lines.map(line => parsePsLine(line));
    expect(parsed.every(Boolean)).toBe(true);
    expect(parsed[0]?.command).toBe('/sbin/launchd');
    const keeper = parsed.find(line => line?.pid === 5021);
    expect(keeper?.command).toContain(
      ' hub-keeper /Users/ana/Library/Application Support/hub/logs/processes/editor.exit argv ',
    );
    expect(parsed.find(line => line?.pid === 5025)?.command).toBe('vim notes.md');
    // The keeper's traps (SIGINT and SIGTERM among them) read from the same line.
    expect(keeper?.caught).toBe(0x60004007n);
    expect(parsed.find(line => line?.pid === 4987)?.caught).toBe(0n);
  });

  test('procps lines carry the session id', () => {
    expect(parsePsLine('17801 17789 17801 17801 Ss   0000000043817efb Fri Nov 27 19:56:03 2026 bash')).toMatchObject({
      pid: 17801,
      sid: 17801,
      caught: 0x43817efbn,
      command: 'bash',
    });
    expect(parsePsLine('17801 17789 17801 17801 Ss   Fri Nov 27 19:56:03 2026 bash')).toMatchObject({
      pid: 17801,
      sid: 17801,
      command: 'bash',
    });
  });

  test('lines that are not ps lines are skipped, never guessed', () => {
    expect(parsePsLine('  PID  PPID  PGID STAT STARTED')).toBeUndefined();
    expect(parsePsLine('')).toBeUndefined();
    expect(parseLstart('Fri Foo 27 19:56:03 2026')).toBeUndefined();
    expect(parseLstart('Thu Nov  6 01:02:03 2025')).toBe(Date.UTC(2025, 10, 6, 1, 2, 3) / 1000);
  });

  test('sysctl kern.boottime: a boot id that changes with each boot', () => {
    expect(parseBoottime(recorded('sysctl-boottime.txt'))).toBe('boot-1764230000.412096');
    expect(parseBoottime('kern.boottime: unknown oid')).toBeUndefined();
  });

  test('lsof -F fn: numbered descriptors per process, the terminal on the command stdin', () => {
    const files = parseLsof(recorded('lsof.txt'), 256);
    expect(files.filter(file => file.pid === 5024 && file.fd === 0)).toEqual([
      { pid: 5024, fd: 0, target: '/Users/ana/Library/Application Support/hub/logs/processes/editor.in' },
    ]);
    expect(files.find(file => file.pid === 5025 && file.fd === 0)?.target).toBe('/dev/ttys004');
    expect(files).toHaveLength(11);
    // Only below maxFd (findPty asks for stdin alone).
    expect(parseLsof(recorded('lsof.txt'), 1).map(file => file.pid)).toEqual([5021, 5024, 5025]);
  });

  test('ps -E: the processes whose environment holds the whole entry', () => {
    const listing = recorded('ps-environ.txt');
    expect([...parseEnvListing(listing, 'HUB_PROCESS_ID=editor')]).toEqual([5021, 5025, 5041]);
    expect([...parseEnvListing(listing, 'HUB_PROCESS_ID=editor-old')]).toEqual([5040]);
  });

  test('ps -o sigcatch: the caught-signals mask, SIGINT and SIGTERM among them', () => {
    const mask = parseSigcatch(recorded('ps-sigcatch.txt'));
    expect(mask).toBe(0x60004007n);
    expect(parseSigcatch('0x4002')).toBe(0x4002n);
    expect(parseSigcatch('')).toBeUndefined();
  });
});

// On Linux (CI) the portable implementation is also checked against /proc; on macOS (the macos
// workflow) against what the test itself knows of the process it started.
const onLinux = process.platform === 'linux';

describe('the portable implementation on this machine', () => {
  const portable = psProcesses(process.platform === 'darwin' ? 'bsd' : 'procps');

  function child(env: Record<string, string> = {}) {
    const dir = mkdtempSync(join(tmpdir(), 'hub-platform-'));
    const file = join(dir, 'held');
    const fd = openSync(file, 'w');
    const started = Date.now();
    const shell = spawn('/bin/sh', ['-c', 'trap : TERM INT; sleep 600 & wait; wait'], {
      detached: true,
      stdio: ['ignore', fd, 'ignore'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    });
    closeSync(fd);
    onTestFinished(() => {
      try {
        process.kill(-(shell.pid as number), 'SIGKILL');
      } catch {
        // gone
      }
      rmSync(dir, { recursive: true, force: true });
    });
    return { pid: shell.pid as number, file: realpathSync(file), started };
  }

  test('identity, children, descendants, command line, environment, descriptors, caught signals', async () => {
    const { pid, file, started } = child({ HUB_PROCESS_ID: 'platform-check' });
    const TRAPPED = (1n << 1n) | (1n << 14n);
    await vi.waitFor(
      () => {
        expect(portable.childrenOf(pid)).toHaveLength(1);
        // The forked subshell has exec'd sleep.
        expect(portable.commandLine(portable.childrenOf(pid)?.[0] ?? 0)).toBe('sleep 600');
        expect((portable.caughtSignals(pid) ?? 0n) & TRAPPED).toBe(TRAPPED);
      },
      { timeout: 10_000 },
    );
    const sleeper = portable.childrenOf(pid)?.[0] ?? 0;
    const identity = portable.identity(pid);
    expect(identity).toMatchObject({ pid, ppid: process.pid, pgid: pid });
    expect(Math.abs((portable.startedAtMs(identity?.startTicks ?? 0) ?? 0) - started)).toBeLessThan(2_000);
    expect(portable.descendantsOf(pid, 10)).toEqual([sleeper]);
    expect(portable.commandLine(sleeper)).toBe('sleep 600');
    expect(portable.withEnvEntry('HUB_PROCESS_ID=platform-check')).toEqual(new Set([pid, sleeper]));
    expect(portable.withEnvEntry('HUB_PROCESS_ID=platform')).toEqual(new Set());
    expect(portable.openFiles([pid], 3).find(open => open.fd === 1)?.target).toBe(file);
    expect(portable.processes().some(entry => entry.pid === sleeper)).toBe(true);
    expect(portable.withCommands().find(entry => entry.pid === sleeper)?.command).toBe('sleep 600');
    expect(portable.bootId()).not.toBe('unknown');
    if (!onLinux) return;
    const fromProc = linuxProcesses.identity(pid);
    expect(identity).toMatchObject({ sid: pid, state: fromProc?.state, ppid: fromProc?.ppid });
    // ps's start time is whole seconds since the epoch; /proc's is ticks since boot.
    const procStarted = linuxProcesses.startedAtMs(fromProc?.startTicks ?? 0) ?? 0;
    expect(Math.abs((portable.startedAtMs(identity?.startTicks ?? 0) ?? 0) - procStarted)).toBeLessThan(1_100);
    expect(portable.childrenOf(pid)).toEqual(linuxProcesses.childrenOf(pid));
    expect(portable.childCommands(pid)).toEqual(linuxProcesses.childCommands(pid));
    expect(portable.commandLine(pid)).toBe(linuxProcesses.commandLine(pid));
    expect(portable.withEnvEntry('HUB_PROCESS_ID=platform-check')).toEqual(
      linuxProcesses.withEnvEntry('HUB_PROCESS_ID=platform-check'),
    );
    expect(portable.openFiles([pid], 3)).toEqual(linuxProcesses.openFiles([pid], 3));
    expect(portable.caughtSignals(pid)).toBe(linuxProcesses.caughtSignals(pid));
    expect(portable.bootId()).toBe(linuxProcesses.bootId());
  });

  test('a listing lives only as long as the code that read it: output seen in a later turn is acted on with a fresh one', async () => {
    // Dropping the listing with setImmediate was too late: I/O callbacks run before the check
    // phase, so a tty kill acted on a listing older than the "ready" line it had seen, missed the
    // terminal's command and signalled `script` (the portable CI pass failed on it). Date.now is
    // held still so that only the end of the turn, not the 15 ms bound, can drop the listing.
    vi.spyOn(Date, 'now').mockReturnValue(Date.now());
    onTestFinished(() => {
      vi.restoreAllMocks();
    });
    const seen = await new Promise<{ pid: number; listed: boolean }>(resolve => {
      setImmediate(() => {
        portable.processes();
        const shell = spawn('/bin/sh', ['-c', 'echo up; exec sleep 600'], {
          detached: true,
          stdio: ['ignore', 'pipe', 'ignore'],
        });
        const pid = shell.pid as number;
        onTestFinished(() => {
          try {
            process.kill(-pid, 'SIGKILL');
          } catch {
            // gone
          }
        });
        shell.stdout.once('data', () =>
          resolve({ pid, listed: portable.processes().some(entry => entry.pid === pid) }),
        );
        // The line is written before this turn ends, so it is read in the next turn's poll phase.
        const until = performance.now() + 500;
        while (performance.now() < until) {
          // wait for the child without yielding
        }
      });
    });
    expect(seen.listed).toBe(true);
  });

  test('a gone pid has no identity, children or command line', () => {
    const gone = 2 ** 22 + 1;
    expect(portable.identity(gone)).toBeUndefined();
    expect(portable.childrenOf(gone)).toBeUndefined();
    expect(portable.childCommands(gone)).toBeUndefined();
    expect(portable.commandLine(gone)).toBeUndefined();
    expect(portable.openFiles([gone], 8)).toEqual([]);
  });
});
