// Process groups: their live members, and a signal sent to a whole group.
import { platform } from './platform/platform.js';
import type { ProcessIdentity } from './platform/types.js';

// Members of a process group (core/platform/platform.ts: /proc on Linux, one ps elsewhere). Zombies are not members: they
// have ended, they only wait to be reaped (a reparented zombie may linger under some inits).
export function liveGroupMembers(pgid: number): number[] {
  return liveProcesses(identity => identity.pgid === pgid).map(identity => identity.pid);
}

/** Every live (non-zombie) process that matches, in one pass. */
export function liveProcesses(matches: (identity: ProcessIdentity) => boolean): ProcessIdentity[] {
  return platform()
    .processes.processes()
    .filter(
      identity => identity.state !== 'Z' && identity.state !== 'X' && identity.state !== 'x' && matches(identity),
    );
}

/** kill(-pgid, signal); false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  if (pgid <= 1) return false;
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}
