// The platform seam without /proc (macOS, HUB_PLATFORM=portable): ps, sysctl, lsof and their parsers.
import { execFileSync } from 'node:child_process';
import type { OpenFile, PlatformProcesses, ProcessIdentity } from './types.js';

// Without /proc (macOS; Linux with HUB_PLATFORM=portable): ps, sysctl and lsof, which macOS and
// Linux both have, each run once per question with a fixed PATH, C locale and UTC (so `lstart`
// parses the same everywhere). A start time is ps's `lstart` (whole seconds since the epoch, in
// 1/100 s like /proc's ticks); the boot id is the boot time (`sysctl kern.boottime`, macOS) or
// Linux's boot_id through sysctl. The parsers are exported for the tests on recorded outputs.

export type PsFlavour = 'bsd' | 'procps';

const TOOL_ENV = { PATH: '/usr/bin:/bin:/usr/sbin:/sbin', LC_ALL: 'C', TZ: 'UTC0' };

/** stdout of a tool; '' when it failed (ps -p of a gone pid exits 1 with nothing printed). */
function run(command: string, args: readonly string[]): string {
  try {
    return execFileSync(command, args, {
      env: TOOL_ENV,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const stdout = (error as { stdout?: unknown }).stdout;
    return typeof stdout === 'string' ? stdout : '';
  }
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `lstart` as ps prints it in C locale and UTC ("Fri Nov 27 19:56:05 2026"): epoch seconds. */
export function parseLstart(text: string): number | undefined {
  const match = /^[A-Z][a-z]{2} ([A-Z][a-z]{2}) +(\d{1,2}) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/.exec(text.trim());
  const month = MONTHS.indexOf(match?.[1] ?? '');
  if (!match || month < 0) return undefined;
  const [, , day, hours, minutes, seconds, year] = match.map(Number) as number[];
  return Date.UTC(year as number, month, day, hours, minutes, seconds) / 1000;
}

// procps prints the session id (`sess`); macOS's ps has no usable one (its `sess` is a kernel
// address, 0 today), so it is not asked and a session is found by the process mark instead.
const SNAPSHOT_COLUMNS: Record<PsFlavour, string> = {
  bsd: 'pid=,ppid=,pgid=,stat=,sigcatch=,lstart=,command=',
  procps: 'pid=,ppid=,pgid=,sess=,stat=,sigcatch=,lstart=,command=',
};
const PS_LINE =
  /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(?:(\d+)\s+)?([A-Za-z<>+.-]\S*)\s+(?:(?:0x)?([0-9a-fA-F]+)\s+)?([A-Z][a-z]{2} [A-Z][a-z]{2} +\d{1,2} [\d:]{8} \d{4})(?: (.*))?$/;

export interface PsRow extends ProcessIdentity {
  readonly command?: string;
  /** The caught-signals mask, when `sigcatch` was asked. */
  readonly caught?: bigint;
}

/** One line of `ps -o pid=,ppid=,pgid=,[sess=,]stat=,[sigcatch=,]lstart=[,command=]`. */
export function parsePsLine(line: string): PsRow | undefined {
  const match = PS_LINE.exec(line);
  if (!match) return undefined;
  const started = parseLstart(match[7] ?? '');
  if (started === undefined) return undefined;
  return {
    pid: Number(match[1]),
    ppid: Number(match[2]),
    pgid: Number(match[3]),
    sid: match[4] === undefined ? 0 : Number(match[4]),
    state: (match[5] ?? '?').charAt(0),
    startTicks: started * 100,
    ...(match[6] !== undefined && { caught: BigInt(`0x${match[6]}`) }),
    ...(match[8] !== undefined && { command: match[8] }),
  };
}

export const parsePsLines = (text: string): ProcessIdentity[] =>
  text.split('\n').flatMap(line => parsePsLine(line) ?? []);

/** `sysctl -n kern.boottime` (macOS): "{ sec = 1764230000, usec = 123456 } Fri Nov 27 ..." → "boot-1764230000.123456". */
export function parseBoottime(text: string): string | undefined {
  const match = /\{\s*sec\s*=\s*(\d+),\s*usec\s*=\s*(\d+)\s*\}/.exec(text);
  return match ? `boot-${match[1]}.${match[2]}` : undefined;
}

/** `lsof -F fn` output (p<pid>, f<fd>, n<name> lines): numbered descriptors only (not cwd, txt, mem). */
export function parseLsof(text: string, maxFd: number): OpenFile[] {
  const found: OpenFile[] = [];
  let pid = 0;
  let fd: number | undefined;
  for (const line of text.split('\n')) {
    const value = line.slice(1);
    if (line.startsWith('p')) pid = Number(value);
    else if (line.startsWith('f')) fd = /^\d+$/.test(value) && Number(value) < maxFd ? Number(value) : undefined;
    else if (line.startsWith('n') && fd !== undefined && pid > 0) {
      found.push({ pid, fd, target: value });
      fd = undefined;
    }
  }
  return found;
}

/** `ps -o sigcatch=` (procps: 16 hex digits; BSD: hex, maybe 0x-prefixed). */
export function parseSigcatch(text: string): bigint | undefined {
  const hex = /^\s*(?:0x)?([0-9a-fA-F]+)\s*$/.exec(text)?.[1];
  return hex === undefined ? undefined : BigInt(`0x${hex}`);
}

/** Which processes' environment (`ps` with the environment after the command) holds entry. */
export function parseEnvListing(text: string, entry: string): Set<number> {
  const found = new Set<number>();
  for (const line of text.split('\n')) {
    const match = /^\s*(\d+) (.*)$/.exec(line);
    if (!match) continue;
    const rest = ` ${match[2] ?? ''} `;
    if (rest.includes(` ${entry} `)) found.add(Number(match[1]));
  }
  return found;
}

// One `ps -A` answers every question asked in the same burst: a kill pass or a reconcile asks
// about many pids at once, and a ps costs milliseconds. The snapshot lives for the synchronous
// stretch that read it: it is dropped in a microtask, so code that awaits anything (a resolved
// promise included) reads afresh. setImmediate was not enough: I/O callbacks run before the check
// phase, so a log line seen in the next turn was acted on with a listing older than the line (a
// tty kill missed the terminal's command and signalled `script`). SNAPSHOT_MS also bounds a
// stretch that blocks; a pid it does not hold (a keeper spawned since) is read again once.
const SNAPSHOT_MS = 15;
interface Snapshot {
  readonly rows: Map<number, PsRow>;
  readonly children: Map<number, number[]>;
  readonly at: number;
}

export function psProcesses(flavour: PsFlavour): PlatformProcesses {
  const columns = SNAPSHOT_COLUMNS[flavour];
  let cached: Snapshot | undefined;
  const read = (): Snapshot => {
    const rows = new Map<number, PsRow>();
    const children = new Map<number, number[]>();
    for (const line of run('ps', ['-A', '-ww', '-o', columns]).split('\n')) {
      const row = parsePsLine(line);
      if (!row) continue;
      rows.set(row.pid, row);
      children.set(row.ppid, [...(children.get(row.ppid) ?? []), row.pid]);
    }
    cached = { rows, children, at: Date.now() };
    const taken = cached;
    queueMicrotask(() => {
      if (cached === taken) cached = undefined;
    });
    return cached;
  };
  const snapshot = (): Snapshot => (cached !== undefined && Date.now() - cached.at <= SNAPSHOT_MS ? cached : read());
  /** The snapshot's row for pid, read afresh once when it is not there. */
  const row = (pid: number): PsRow | undefined => {
    if (pid <= 0) return undefined;
    const fresh = cached === undefined || Date.now() - cached.at > SNAPSHOT_MS;
    return snapshot().rows.get(pid) ?? (fresh ? undefined : read().rows.get(pid));
  };
  const identityOf = (found: PsRow): ProcessIdentity => ({
    pid: found.pid,
    state: found.state,
    ppid: found.ppid,
    pgid: found.pgid,
    sid: found.sid,
    startTicks: found.startTicks,
  });
  let bootIdCache: string | undefined;
  return {
    source: 'ps',
    identity(pid) {
      const found = row(pid);
      return found && identityOf(found);
    },
    processes: () => [...snapshot().rows.values()].map(identityOf),
    bootId() {
      bootIdCache ??=
        (flavour === 'bsd'
          ? parseBoottime(run('sysctl', ['-n', 'kern.boottime']))
          : run('sysctl', ['-n', 'kernel.random.boot_id']).trim()) || 'unknown';
      return bootIdCache;
    },
    startedAtMs: startTicks => startTicks * 10,
    childrenOf: pid => (row(pid) === undefined ? undefined : (snapshot().children.get(pid) ?? [])),
    childCommands(pid) {
      if (row(pid) === undefined) return undefined;
      const { rows, children } = snapshot();
      return (children.get(pid) ?? []).map(child => rows.get(child)?.command ?? '');
    },
    descendantsOf(pid, max) {
      const { children } = snapshot();
      const found: number[] = [];
      const queue = [...(children.get(pid) ?? [])];
      while (queue.length > 0 && found.length < max) {
        const next = queue.shift() as number;
        found.push(next);
        queue.push(...(children.get(next) ?? []));
      }
      return found;
    },
    commandLine: pid => row(pid)?.command,
    withEnvEntry: entry =>
      parseEnvListing(
        run('ps', flavour === 'bsd' ? ['-A', '-E', '-ww', '-o', 'pid=,command='] : ['axeww', '-o', 'pid=,command=']),
        entry,
      ),
    // lsof refuses the range 0-0.
    openFiles: (pids, maxFd) =>
      pids.length === 0
        ? []
        : parseLsof(
            run('lsof', [
              '-w',
              '-n',
              '-P',
              '-a',
              '-p',
              pids.join(','),
              '-d',
              maxFd > 1 ? `0-${maxFd - 1}` : '0',
              '-F',
              'fn',
            ]),
            maxFd,
          ),
    caughtSignals: pid => row(pid)?.caught,
    withCommands: () =>
      [...snapshot().rows.values()].map(found => ({ ...identityOf(found), command: found.command ?? '' })),
  };
}
