import { rmSync } from 'node:fs';
import { HubError, isHubError } from '../errors.js';
import type { HubPaths } from '../paths.js';
import type { ProcessRecord, StoreData } from '../store/schema.js';
import type { Store } from '../store/store.js';
import { isPrunable, reconcileRecord } from './reconcile.js';

/** Deletes a record with its log and exit file. */
export function forgetRecord(data: StoreData, paths: HubPaths, id: string): void {
  delete data.processes[id];
  for (const file of [paths.processLog(id), paths.processExitFile(id), `${paths.processExitFile(id)}.tmp`]) rmSync(file, { force: true });
}

// Brings every record in data up to date (status, exit, prune); true when something changed.
export function reconcileAll(data: StoreData, paths: HubPaths, nowMs = Date.now()): boolean {
  let changed = false;
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

// Current records: reconciled from a lock-free read; the store is written (under the lock) only
// when a status actually changed or a record is due for pruning, so listing stays cheap.
export async function currentRecords(store: Store, paths: HubPaths): Promise<ProcessRecord[]> {
  const data = await store.read();
  const nowMs = Date.now();
  const needsWrite = Object.values(data.processes).some(record => {
    const current = reconcileRecord(record, paths, nowMs);
    return current !== record || isPrunable(current, nowMs);
  });
  if (!needsWrite) return Object.values(data.processes);
  try {
    return await store.update(fresh => {
      reconcileAll(fresh, paths);
      return Object.values(fresh.processes);
    });
  } catch (error) {
    // A read-only or full HUB_HOME: the listing is still right, only not saved (nor pruned).
    if (!isHubError(error) || error.code !== 'STORE_UNWRITABLE') throw error;
    return Object.values(data.processes).map(record => reconcileRecord(record, paths, nowMs));
  }
}

// An `id` input is an id, or a name: the running process of that name, else the newest one.
export function findRecord(records: readonly ProcessRecord[], reference: string): ProcessRecord {
  const byId = records.find(record => record.id === reference);
  if (byId) return byId;
  const named = records.filter(record => record.name === reference).sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  const found = named.find(record => record.status === 'running') ?? named[0];
  if (!found) throw new HubError('NOT_FOUND', `No process with id or name "${reference}" is known; list_processes (or "hub ps" in a terminal) shows the ids and names.`);
  return found;
}

export const byStartTime = (a: ProcessRecord, b: ProcessRecord): number => a.startedAt.localeCompare(b.startedAt) || a.id.localeCompare(b.id);
