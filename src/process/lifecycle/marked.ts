// The HUB_PROCESS_ID mark every started process carries, and the escapees found by it.
import { liveProcesses } from '../../core/process-group.js';
import { platform } from '../../core/platform/platform.js';
import type { ProcessIdentity } from '../../core/process-identity.js';

// Every process hub starts carries HUB_PROCESS_ID=<record id> in its environment (set on the
// keeper, inherited by all it spawns). A child that called setsid (`setsid -f`, a daemon's double
// fork) leaves the keeper's group and session and is reparented to init: nothing in /proc ties it
// to the keeper any more except this mark, which it keeps unless it clears its environment. The
// same idea as Jenkins' BUILD_ID "process tree killer". A process's environment is readable for
// this user's processes alone (/proc/<pid>/environ, ps -E), so another user's is never matched.
export const PROCESS_MARK_ENV = 'HUB_PROCESS_ID';

/**
 * Live processes marked with this record's id that are outside `groups` (the keeper's group and
 * the groups of its session, which are stopped as groups). Never hub itself.
 */
export function markedEscapees(id: string, groups: ReadonlySet<number>): ProcessIdentity[] {
  const marked = platform().processes.withEnvEntry(`${PROCESS_MARK_ENV}=${id}`);
  return liveProcesses(
    identity => identity.pid !== process.pid && !groups.has(identity.pgid) && marked.has(identity.pid),
  );
}
