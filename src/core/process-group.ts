import { readdirSync } from 'node:fs';
import { readProcessIdentity, type ProcessIdentity } from './process-identity.js';

// Members of a process group, read from /proc (no subprocess). Zombies are not members: they
// have ended, they only wait to be reaped (a reparented zombie may linger under some inits).
export function liveGroupMembers(pgid: number): number[] {
  return liveProcesses(identity => identity.pgid === pgid).map(identity => identity.pid);
}

/** Every live (non-zombie) process that matches, in one pass over /proc. */
export function liveProcesses(matches: (identity: ProcessIdentity) => boolean): ProcessIdentity[] {
  const found: ProcessIdentity[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    const identity = readProcessIdentity(pid);
    if (identity && identity.state !== 'Z' && identity.state !== 'X' && identity.state !== 'x' && matches(identity))
      found.push(identity);
  }
  return found;
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
