import { readFileSync, readlinkSync } from 'node:fs';
import { readProcessIdentity } from '../../core/process-identity.js';

// A keeper's live descendants, from /proc/<pid>/task/<pid>/children (no subprocess). Bounded:
// a fork bomb under a keeper costs at most MAX_DESCENDANTS reads.
const MAX_DESCENDANTS = 4_096;

const read = (file: string): string | undefined => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

export function childrenOf(pid: number): number[] {
  return (read(`/proc/${pid}/task/${pid}/children`) ?? '').trim().split(' ').filter(Boolean).map(Number);
}

export function descendantsOf(pid: number): number[] {
  const found: number[] = [];
  const queue = childrenOf(pid);
  while (queue.length > 0 && found.length < MAX_DESCENDANTS) {
    const next = queue.shift() as number;
    found.push(next);
    queue.push(...childrenOf(next));
  }
  return found;
}

export const commandLineOf = (pid: number): string | undefined => read(`/proc/${pid}/cmdline`);

export function fdTarget(pid: number, fd: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/**
 * The process the keeper runs now and everything under it: the keeper's children that have
 * exec'd (its forked subshells, the log cap's among them, keep its command line), with their
 * descendants. What restart_process stops.
 */
export function commandTree(keeperPid: number): number[] {
  const keeperLine = commandLineOf(keeperPid);
  return childrenOf(keeperPid)
    .filter(child => commandLineOf(child) !== keeperLine)
    .flatMap(child => [child, ...descendantsOf(child)]);
}

/** Sessions started under the keeper (the pseudo-terminal's, a command's own setsid). */
export function sessionsUnder(keeperPid: number): number[] {
  const keeperSid = readProcessIdentity(keeperPid)?.sid;
  const sids = new Set<number>();
  for (const pid of descendantsOf(keeperPid)) {
    const sid = readProcessIdentity(pid)?.sid;
    if (sid !== undefined && sid !== keeperSid && sid > 1) sids.add(sid);
  }
  return [...sids];
}
