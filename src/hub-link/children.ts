// The child servers' process groups written down, so the next hub reaps those a dead hub left.
import { readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { onChildGroupsChanged } from '../core/child-groups.js';
import { liveGroupMembers, signalGroup } from '../core/process-group.js';
import { bootId, isRecordedProcess, pidAlive, readProcessIdentity } from '../core/process-identity.js';
import { writeFileAtomic } from '../core/write-atomic.js';
import type { Logger } from '../core/logger.js';

// Orphans: each child server leads its own process group (so hub can end its whole tree), so a
// SIGKILLed shared hub leaves them running with no owner. The hub writes their groups down as
// they start and end (hub.children.json); the next shared hub (or `hub stop`) reaps the groups
// of an owner that is gone. Chosen over one group dying with the hub: a group only dies when
// someone signals it, and a SIGKILLed hub signals nobody.

const Identity = z.object({ pid: z.number().int().positive(), startTicks: z.number(), bootId: z.string() });
const ChildrenSchema = z.object({ owner: Identity, groups: z.array(Identity) });

const identityOf = (pid: number) => ({
  pid,
  startTicks: readProcessIdentity(pid)?.startTicks ?? 0,
  bootId: bootId(),
});

/** Writes file on every start and end of a child group of this process, until the returned stop. */
export function recordChildGroups(file: string, log: Logger): { stop(): void; groups(): number[] } {
  const owner = identityOf(process.pid);
  // Identities are read at start: by the end of the hub the leader may have exited.
  const known = new Map<number, ReturnType<typeof identityOf>>();
  onChildGroupsChanged(groups => {
    for (const pgid of groups) if (!known.has(pgid)) known.set(pgid, identityOf(pgid));
    for (const pgid of known.keys()) if (!groups.has(pgid)) known.delete(pgid);
    try {
      writeFileAtomic(file, JSON.stringify({ owner, groups: [...known.values()] }));
    } catch (error) {
      log.warn({ err: error }, `could not record child servers in ${file}`);
    }
  });
  return {
    // Closed cleanly: nothing of ours is left to reap. The file goes only if still ours (a hub
    // started while this one closed may have written its own).
    stop: () => {
      onChildGroupsChanged(undefined);
      try {
        const current = JSON.parse(readFileSync(file, 'utf8')) as { owner?: { pid?: number } };
        if (current.owner?.pid === process.pid) rmSync(file, { force: true });
      } catch {
        // none written
      }
    },
    groups: () => [...known.keys()],
  };
}

/** Ends the recorded child groups of a shared hub that is gone; returns how many it signalled. */
export async function reapOrphanGroups(file: string, log: Logger): Promise<number> {
  let data: z.infer<typeof ChildrenSchema>;
  try {
    const parsed = ChildrenSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success) return 0;
    data = parsed.data;
  } catch {
    return 0;
  }
  const { owner } = data;
  if (owner.pid === process.pid || isRecordedProcess(owner.pid, owner)) return 0; // its owner still runs
  const groups = data.groups.filter(group =>
    // The leader is that child still; or it is gone and its group lives on (Linux reuses no pid
    // that still names a process group, so the members found are that group's).
    isRecordedProcess(group.pid, group) ? true : !pidAlive(group.pid) && liveGroupMembers(group.pid).length > 0,
  );
  for (const group of groups) signalGroup(group.pid, 'SIGTERM');
  const deadline = Date.now() + 1_500;
  while (Date.now() < deadline && groups.some(group => liveGroupMembers(group.pid).length > 0)) await sleep(50);
  // Only groups still alive: a group that ended meanwhile may have its id taken by a new process.
  for (const group of groups) if (liveGroupMembers(group.pid).length > 0) signalGroup(group.pid, 'SIGKILL');
  if (groups.length > 0)
    log.warn({ groups: groups.map(g => g.pid) }, 'ended child servers a dead shared hub left behind');
  rmSync(file, { force: true });
  return groups.length;
}
