// Process groups that left a keeper's group but stayed in its session, stopped with it.
import type { ProcessRecord } from '../../store/schema.js';
import { liveProcesses } from '../../core/process-group.js';
import { sessionsUnder } from './process-tree.js';

// The keeper leads its own session (spawned detached: setsid), so a child that leaves the
// keeper's process group with setpgid(0,0) stays in the session: found by session id, it is
// stopped with the group rather than left running. (A child that calls setsid itself leaves
// both; nothing in /proc ties it to the keeper any more once it is reparented.)
// The caller has checked that the record's keeper (or its surviving group) is ours: the kernel
// does not reuse a pid still used as a session id.

/** Process groups of the keeper's session other than its own. */
export function liveSessionStrays(record: ProcessRecord): number[] {
  const sid = record.pgid ?? record.pid;
  if (sid <= 1) return [];
  // A tty process's command leads the pseudo-terminal's own session, under the keeper's `script`.
  const sessions = new Set([sid, ...sessionsUnder(sid)]);
  const groups = new Set(
    liveProcesses(identity => sessions.has(identity.sid) && identity.pgid !== sid).map(identity => identity.pgid),
  );
  return [...groups];
}

/**
 * The groups of liveSessionStrays that left the command's group by themselves: a tty command's
 * own group (its terminal's session, under `script`) is where it belongs, not an escape.
 */
export function escapedOf(record: ProcessRecord, groups: readonly number[]): number[] {
  if (record.tty === undefined || groups.length === 0) return [...groups];
  const sid = record.pgid ?? record.pid;
  const wanted = new Set(groups);
  return [
    ...new Set(
      liveProcesses(identity => wanted.has(identity.pgid) && identity.sid === sid).map(identity => identity.pgid),
    ),
  ];
}
