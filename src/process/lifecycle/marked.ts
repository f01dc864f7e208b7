import { readFileSync } from 'node:fs';
import { liveProcesses } from '../../core/process-group.js';
import type { ProcessIdentity } from '../../core/process-identity.js';

// Every process hub starts carries HUB_PROCESS_ID=<record id> in its environment (set on the
// keeper, inherited by all it spawns). A child that called setsid (`setsid -f`, a daemon's double
// fork) leaves the keeper's group and session and is reparented to init: nothing in /proc ties it
// to the keeper any more except this mark, which it keeps unless it clears its environment. The
// same idea as Jenkins' BUILD_ID "process tree killer". Linux only; /proc/<pid>/environ is
// readable for this user's processes alone, so another user's process is never matched.
export const PROCESS_MARK_ENV = 'HUB_PROCESS_ID';

// The environ block is NUL-separated and NUL-terminated: with a NUL put before it, the mark is
// one whole entry exactly when `\0HUB_PROCESS_ID=<id>\0` occurs.
const markOf = (id: string): Buffer => Buffer.from(`\0${PROCESS_MARK_ENV}=${id}\0`);
const NUL = Buffer.from([0]);

function carriesMark(pid: number, mark: Buffer): boolean {
  try {
    return Buffer.concat([NUL, readFileSync(`/proc/${pid}/environ`)]).includes(mark);
  } catch {
    return false;
  }
}

/**
 * Live processes marked with this record's id that are outside `groups` (the keeper's group and
 * the groups of its session, which are stopped as groups). Never hub itself.
 */
export function markedEscapees(id: string, groups: ReadonlySet<number>): ProcessIdentity[] {
  const mark = markOf(id);
  return liveProcesses(
    identity => identity.pid !== process.pid && !groups.has(identity.pgid) && carriesMark(identity.pid, mark),
  );
}
