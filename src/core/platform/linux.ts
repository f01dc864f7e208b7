// The platform seam on Linux: process identity, groups and environments read from /proc.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { OpenFile, PlatformProcesses, ProcessIdentity } from './types.js';

// Linux: everything from /proc, no subprocess. A start time is field 22 of /proc/<pid>/stat
// (clock ticks since boot), the boot id /proc/sys/kernel/random/boot_id, the boot time /proc/stat.

const CLOCK_TICKS_PER_SECOND = 100;

const read = (file: string): string | undefined => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

/** Parses /proc/<pid>/stat; comm (field 2) may hold spaces and parentheses: fields count after the last ')'. */
export function parseProcStat(pid: number, text: string): ProcessIdentity | undefined {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const startTicks = Number(fields[19]);
  if (!Number.isFinite(startTicks)) return undefined;
  return {
    pid,
    state: fields[0] ?? '?',
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    sid: Number(fields[3]),
    startTicks,
  };
}

const identity = (pid: number): ProcessIdentity | undefined => {
  const text = read(`/proc/${pid}/stat`);
  return text === undefined ? undefined : parseProcStat(pid, text);
};

const pids = (): number[] =>
  readdirSync('/proc')
    .map(Number)
    .filter(pid => Number.isInteger(pid) && pid > 0);

const childrenOf = (pid: number): number[] | undefined =>
  read(`/proc/${pid}/task/${pid}/children`)?.trim().split(' ').filter(Boolean).map(Number);

let bootIdCache: string | undefined;
let bootTimeMs: number | undefined;

export const linuxProcesses: PlatformProcesses = {
  source: 'proc',
  identity,
  processes: () => pids().flatMap(pid => identity(pid) ?? []),
  bootId() {
    bootIdCache ??= read('/proc/sys/kernel/random/boot_id')?.trim() || 'unknown';
    return bootIdCache;
  },
  startedAtMs(startTicks) {
    if (bootTimeMs === undefined) {
      const btime = /^btime (\d+)$/m.exec(read('/proc/stat') ?? '')?.[1];
      bootTimeMs = btime === undefined ? 0 : Number(btime) * 1000;
    }
    return bootTimeMs > 0 ? bootTimeMs + (startTicks * 1000) / CLOCK_TICKS_PER_SECOND : undefined;
  },
  childrenOf,
  childCommands: pid => childrenOf(pid)?.flatMap(child => linuxProcesses.commandLine(child) ?? []),
  descendantsOf(pid, max) {
    // Bounded: a fork bomb under a keeper costs at most max reads.
    const found: number[] = [];
    const queue = childrenOf(pid) ?? [];
    while (queue.length > 0 && found.length < max) {
      const next = queue.shift() as number;
      found.push(next);
      queue.push(...(childrenOf(next) ?? []));
    }
    return found;
  },
  commandLine: pid => read(`/proc/${pid}/cmdline`)?.replace(/\0$/, '').split('\0').join(' '),
  withEnvEntry(entry) {
    // The environ block is NUL-separated and NUL-terminated: with a NUL put before it, the entry
    // is one whole entry exactly when `\0<entry>\0` occurs. Readable for this user's processes only.
    const mark = Buffer.from(`\0${entry}\0`);
    const nul = Buffer.from([0]);
    const found = new Set<number>();
    for (const pid of pids()) {
      try {
        if (Buffer.concat([nul, readFileSync(`/proc/${pid}/environ`)]).includes(mark)) found.add(pid);
      } catch {
        // gone, or another user's
      }
    }
    return found;
  },
  openFiles(of, maxFd) {
    const found: OpenFile[] = [];
    for (const pid of of) {
      let fds: string[];
      try {
        fds = readdirSync(`/proc/${pid}/fd`);
      } catch {
        continue;
      }
      for (const fd of fds.map(Number).filter(fd => fd < maxFd)) {
        try {
          found.push({ pid, fd, target: readlinkSync(`/proc/${pid}/fd/${fd}`) });
        } catch {
          // closed meanwhile
        }
      }
    }
    return found;
  },
  caughtSignals(pid) {
    const caught = /^SigCgt:\s*([0-9a-f]+)$/m.exec(read(`/proc/${pid}/status`) ?? '')?.[1];
    return caught === undefined ? undefined : BigInt(`0x${caught}`);
  },
  withCommands: () =>
    pids().flatMap(pid => {
      const found = identity(pid);
      return found ? [{ ...found, command: linuxProcesses.commandLine(pid) ?? '' }] : [];
    }),
  exact: {
    argv: pid => read(`/proc/${pid}/cmdline`)?.split('\0').slice(0, -1),
    environ: pid => read(`/proc/${pid}/environ`)?.split('\0'),
    cwd(pid) {
      try {
        return readlinkSync(`/proc/${pid}/cwd`);
      } catch {
        return undefined;
      }
    },
  },
};
