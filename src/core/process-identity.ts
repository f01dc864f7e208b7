// Who a pid is: pid, start time and boot id name one process for good (pids are recycled).
import { platform } from './platform/platform.js';
import type { ProcessIdentity } from './platform/types.js';

// Who a pid is right now (core/platform/platform.ts: /proc/<pid>/stat on Linux, ps elsewhere): a pid alone
// is a hint (pids are recycled); pid + start time + boot id names one process for good.
export type { ProcessIdentity } from './platform/types.js';

export const readProcessIdentity = (pid: number): ProcessIdentity | undefined => platform().processes.identity(pid);

export const bootId = (): string => platform().processes.bootId();

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
