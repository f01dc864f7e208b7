import { readFileSync } from 'node:fs';

// Who a pid is right now, from /proc/<pid>/stat: a pid alone is a hint (pids are recycled);
// pid + start time (field 22, clock ticks since boot) + boot id names one process for good.
export interface ProcessIdentity {
  readonly pid: number;
  readonly state: string;
  readonly ppid: number;
  readonly pgid: number;
  /** Session id (field 6): a child that left the keeper's group with setpgid is still in its session. */
  readonly sid: number;
  readonly startTicks: number;
}

export function readProcessIdentity(pid: number): ProcessIdentity | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // comm (field 2) may hold spaces and parentheses: fields are counted after the last ')'.
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

let bootIdCache: string | undefined;
export function bootId(): string {
  if (bootIdCache === undefined) {
    try {
      bootIdCache = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      bootIdCache = 'unknown';
    }
  }
  return bootIdCache;
}

const ENDED_STATES = new Set(['Z', 'X', 'x']);

/** True when pid is alive, not a zombie, and started at startTicks (when given) in this boot. */
export function isSameProcess(pid: number, startTicks?: number, recordedBootId?: string): boolean {
  if (recordedBootId !== undefined && recordedBootId !== bootId()) return false;
  const identity = readProcessIdentity(pid);
  if (!identity || ENDED_STATES.has(identity.state)) return false;
  return startTicks === undefined || Number.isNaN(startTicks) || identity.startTicks === startTicks;
}

/** The full check for a recorded keeper: same pid, start time, boot and process group, not a zombie. */
export function isRecordedProcess(
  pid: number,
  recorded: { startTicks?: number | undefined; bootId?: string | undefined; pgid?: number | undefined },
): boolean {
  if (recorded.startTicks === undefined) return false;
  if (recorded.bootId !== undefined && recorded.bootId !== bootId()) return false;
  const identity = readProcessIdentity(pid);
  if (!identity || ENDED_STATES.has(identity.state)) return false;
  return (
    identity.startTicks === recorded.startTicks && (recorded.pgid === undefined || identity.pgid === recorded.pgid)
  );
}

/** Whether a process with this pid exists (EPERM: it does, owned by someone else). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
