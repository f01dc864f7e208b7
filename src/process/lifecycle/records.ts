// The process records, reconciled, found by id or name, pruned and forgotten with their files.
import { rmSync } from 'node:fs';
import { HubError, isHubError } from '../../core/errors.js';
import type { HubPaths } from '../../core/paths.js';
import type { ProcessRecord, StoreData } from '../../store/schema.js';
import type { Store } from '../../store/store.js';
import { findKeepers, type FoundKeeper } from '../keeper/scan.js';
import { isPrunable, killMarkerFile, reconcileRecord } from './reconcile.js';
import { applyKeepers, hasAbandonedStart } from './recover.js';
import { runFiles } from '../keeper/run-files.js';

/** Deletes a record with its log and exit file. */
export function forgetRecord(data: StoreData, paths: HubPaths, id: string): void {
  delete data.processes[id];
  for (const file of recordFiles(paths, id)) rmSync(file, { force: true });
}

/** Every file a record has beside db.json: its log, exit and kill marker, run files. */
export const recordFiles = (paths: HubPaths, id: string): string[] => [
  paths.processLog(id),
  `${paths.processLog(id)}.cut`,
  killMarkerFile(paths, id),
  paths.processExitFile(id),
  `${paths.processExitFile(id)}.tmp`,
  ...runFiles(paths, id),
];

// Brings every record in data up to date (keepers found in /proc, status, exit, prune); true
// when something changed. keepers: the result of findKeepers, when the caller scanned.
export function reconcileAll(
  data: StoreData,
  paths: HubPaths,
  nowMs = Date.now(),
  keepers?: ReadonlyMap<string, FoundKeeper>,
): boolean {
  let changed = false;
  const found = keepers ?? (hasAbandonedStart(data) ? findKeepers(paths) : undefined);
  if (found) changed = applyKeepers(data, found, paths, nowMs);
  for (const [id, record] of Object.entries(data.processes)) {
    const current = reconcileRecord(record, paths, nowMs);
    if (isPrunable(current, nowMs)) {
      forgetRecord(data, paths, id);
      changed = true;
    } else if (current !== record) {
      data.processes[id] = current;
      changed = true;
    }
  }
  return changed;
}

export interface ReconcileOptions {
  /** Look in /proc for keepers of this HUB_HOME that no record knows (records being started are always looked up). */
  readonly scan?: boolean;
}

// Current records: reconciled from a lock-free read; the store is written (under the lock) only
// when a status actually changed, a keeper was found, or a record is due for pruning, so
// listing stays cheap.
export async function currentRecords(
  store: Store,
  paths: HubPaths,
  options: ReconcileOptions = {},
): Promise<ProcessRecord[]> {
  const data = await store.read();
  const nowMs = Date.now();
  const keepers = options.scan || hasAbandonedStart(data) ? findKeepers(paths) : undefined;
  const needsWrite =
    (keepers !== undefined && applyKeepers(structuredClone(data), keepers, paths, nowMs)) ||
    Object.values(data.processes).some(record => {
      const current = reconcileRecord(record, paths, nowMs);
      return current !== record || isPrunable(current, nowMs);
    });
  if (!needsWrite) return Object.values(data.processes);
  try {
    return await store.update(fresh => {
      reconcileAll(fresh, paths, Date.now(), keepers === undefined ? undefined : findKeepers(paths));
      return Object.values(fresh.processes);
    });
  } catch (error) {
    // A read-only or full HUB_HOME: the listing is still right, only not saved (nor pruned).
    if (!isHubError(error) || error.code !== 'STORE_UNWRITABLE') throw error;
    return readRecords(store, paths);
  }
}

// The records as they are now, computed without writing the store: for kill_process, which must
// work when the store cannot be written (full disk, a frozen lock holder).
export async function readRecords(store: Store, paths: HubPaths): Promise<ProcessRecord[]> {
  const data = await store.read();
  const nowMs = Date.now();
  const keepers = hasAbandonedStart(data) ? findKeepers(paths) : undefined;
  if (keepers) applyKeepers(data, keepers, paths, nowMs);
  return Object.values(data.processes).map(record => reconcileRecord(record, paths, nowMs));
}

// An `id` input is an id, or a name: the running process of that name, else the newest one.
export function findRecord(records: readonly ProcessRecord[], reference: string): ProcessRecord {
  const byId = records.find(record => record.id === reference);
  if (byId) return byId;
  const named = records
    .filter(record => record.name === reference)
    .sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  const found = named.find(record => record.status === 'running') ?? named[0];
  if (!found)
    throw new HubError(
      'NOT_FOUND',
      `No process with id or name "${reference}" is known; list_processes (or "hub-mcp ps" in a terminal) shows the ids and names.`,
    );
  return found;
}

export const byStartTime = (a: ProcessRecord, b: ProcessRecord): number =>
  a.startedAt.localeCompare(b.startedAt) || a.id.localeCompare(b.id);
