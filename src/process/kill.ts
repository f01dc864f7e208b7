import type { HubPaths } from '../paths.js';
import type { ProcessRecord } from '../store/schema.js';
import type { Store } from '../store/store.js';
import { HubError } from '../errors.js';
import { bootId, readProcessIdentity } from './identity.js';
import { liveGroupMembers } from './group.js';
import { isKeeperAlive, reconcileRecord } from './reconcile.js';
import { currentRecords, findRecord, forgetRecord } from './records.js';
import { stopGroup, type KillSignal } from './stop.js';

export interface KillSpec {
  readonly reference: string;
  readonly signal: KillSignal;
  readonly graceMs: number;
  readonly remove: boolean;
}

export interface KillOutcome {
  readonly record: ProcessRecord;
  /** The process had already ended: nothing of it was running to signal. */
  readonly alreadyEnded: boolean;
  readonly signalSent: KillSignal | undefined;
  readonly escalated: boolean;
  /** Leftover members of an ended process's group (orphaned grandchildren) that were stopped. */
  readonly strayMembers: number;
  readonly removed: boolean;
  readonly waitedMs: number;
}

// An ended process may leave grandchildren in its group. They are ours only while the group id
// still names our keeper: no process holds that pid, or it is our keeper's own zombie.
function strayGroupOf(record: ProcessRecord): number[] {
  if (record.bootId !== undefined && record.bootId !== bootId()) return [];
  const pgid = record.pgid ?? record.pid;
  const leader = readProcessIdentity(pgid);
  if (leader && (leader.startTicks !== record.startTicks || leader.pgid !== pgid)) return [];
  return liveGroupMembers(pgid);
}

async function finish(store: Store, paths: HubPaths, id: string, patch: Partial<ProcessRecord>, remove: boolean): Promise<ProcessRecord> {
  return store.update(data => {
    const stored = data.processes[id];
    if (!stored) throw new HubError('NOT_FOUND', `Process "${id}" was removed by another hub meanwhile.`);
    const record = reconcileRecord({ ...stored, ...patch }, paths);
    if (remove) forgetRecord(data, paths, id);
    else data.processes[id] = record;
    return record;
  });
}

// SIGTERM (or the given signal) to the whole group, SIGKILL after grace, wait until no member
// lives. The group is signalled only while the recorded keeper is the live process (pid, start
// time, boot): a recycled pid is never signalled. Killing an ended process returns its record.
export async function killProcess(store: Store, paths: HubPaths, spec: KillSpec): Promise<KillOutcome> {
  const found = findRecord(await currentRecords(store, paths), spec.reference);
  const pgid = found.pgid ?? found.pid;
  if (found.status !== 'running' || !isKeeperAlive(found)) {
    const strays = strayGroupOf(found);
    const outcome = strays.length > 0 ? await stopGroup(pgid, spec.signal, spec.graceMs) : undefined;
    const record = await finish(store, paths, found.id, {}, spec.remove);
    return { record, alreadyEnded: true, signalSent: outcome ? spec.signal : undefined, escalated: outcome?.escalated ?? false, strayMembers: strays.length, removed: spec.remove, waitedMs: outcome?.waitedMs ?? 0 };
  }
  await store.update(data => {
    const stored = data.processes[found.id];
    if (stored && stored.status === 'running') stored.killRequestedAt = new Date().toISOString();
  });
  const outcome = await stopGroup(pgid, spec.signal, spec.graceMs);
  if (!outcome.stopped) {
    throw new HubError('STOP_FAILED', `Process "${found.id}" (group ${pgid}) still has live members after SIGKILL (${liveGroupMembers(pgid).join(', ')}); they may be stuck in the kernel. Try kill_process again later.`);
  }
  // The keeper records the exit unless SIGKILL reached it first; then the signal is ours to record.
  const patch: Partial<ProcessRecord> = { killRequestedAt: new Date().toISOString(), ...(outcome.escalated || spec.signal === 'SIGKILL' ? { signal: 'SIGKILL' } : { signal: spec.signal }) };
  const record = await finish(store, paths, found.id, patch, spec.remove);
  return { record, alreadyEnded: false, signalSent: spec.signal, escalated: outcome.escalated, strayMembers: 0, removed: spec.remove, waitedMs: outcome.waitedMs };
}
