import type { HubPaths } from '../paths.js';
import type { ProcessRecord } from '../store/schema.js';
import { readExitFile } from './exit-file.js';
import { isRecordedProcess } from './identity.js';

export const PRUNE_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

// The current truth about one record, from the OS and the keeper's exit file; no subprocess.
// A record is running only while its keeper is the very process that was started (pid + start
// ticks + boot id); a recycled pid or a zombie counts as ended.
export function reconcileRecord(record: ProcessRecord, paths: HubPaths, nowMs = Date.now()): ProcessRecord {
  if (record.status !== 'running') return record;
  if (isKeeperAlive(record)) return record;
  // Checked after the identity: the keeper writes the file before it exits.
  const exit = readExitFile(paths.processExitFile(record.id));
  const killed = record.killRequestedAt !== undefined;
  const ended: ProcessRecord = { ...record, status: killed ? 'killed' : 'exited' };
  if (exit) {
    ended.exitCode = exit.code;
    ended.endedAt = new Date(exit.endedAtMs).toISOString();
    if (exit.signal !== undefined) ended.signal = exit.signal;
  } else {
    // The keeper itself was killed (SIGKILL, reboot): the code is unknown.
    ended.exitCode = null;
    ended.endedAt = new Date(nowMs).toISOString();
    if (killed && record.signal === undefined) ended.signal = 'SIGKILL';
  }
  return ended;
}

export function isPrunable(record: ProcessRecord, nowMs = Date.now()): boolean {
  if (record.status === 'running' || record.endedAt === undefined) return false;
  return nowMs - Date.parse(record.endedAt) > PRUNE_AFTER_MS;
}

/** The keeper recorded for this process is still the live, non-zombie group leader. */
export const isKeeperAlive = (record: ProcessRecord): boolean =>
  isRecordedProcess(record.pid, { startTicks: record.startTicks, bootId: record.bootId, pgid: record.pgid ?? record.pid });
