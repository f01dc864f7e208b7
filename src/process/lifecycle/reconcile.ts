// The current truth about one process record, from the OS, its exit file and its kill marker.
import { existsSync, readFileSync } from 'node:fs';
import type { HubPaths } from '../../core/paths.js';
import type { ProcessRecord } from '../../store/schema.js';
import { readExitFile } from '../keeper/exit-file.js';
import { readRestarts } from '../keeper/run-files.js';
import { liveGroupMembers } from '../../core/process-group.js';
import { bootId, isRecordedProcess, readProcessIdentity } from '../../core/process-identity.js';

// Written by kill_process before it signals (an empty file: it fits on a full disk, needs no
// store lock), so the end is recorded as killed even if the store could not be written then.
export const killMarkerFile = (paths: HubPaths, id: string): string =>
  `${paths.processExitFile(id).replace(/\.exit$/, '')}.kill`;

// The marker holds the signal kill_process ended it with (SIGKILL once escalated), so the record
// names the same signal as the kill result even when the store and the keeper's exit file could
// not be written. Empty when that write failed too (a full disk): the signal is then unknown.
export function killMarkerSignal(paths: HubPaths, id: string): string | undefined {
  try {
    const text = readFileSync(killMarkerFile(paths, id), 'utf8').trim();
    return /^SIG[A-Z0-9]{2,8}$/.test(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

export const PRUNE_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

// The current truth about one record, from the OS and the keeper's exit file; no subprocess.
// A record is running while its keeper is the very process that was started (pid + start
// ticks + boot id), or while its group lives on after the keeper alone was killed (no exit
// file: a group outliving a recorded exit is only strays); a recycled
// pid or a zombie counts as ended. A record still being started (startingBy) is left as it is:
// reconcileAll settles it, with the keepers found in /proc.
export function reconcileRecord(record: ProcessRecord, paths: HubPaths, nowMs = Date.now()): ProcessRecord {
  if (record.status !== 'running' || record.startingBy !== undefined) return record;
  if (isKeeperAlive(record)) return withRestarts(record, paths);
  // Checked after the identity: the keeper writes the file before it exits.
  const exit = readExitFile(paths.processExitFile(record.id));
  // No exit file but a live group: the keeper alone was killed and the command runs on.
  if (!exit && orphanedGroupMembers(record).length > 0) return record;
  const killed = record.killRequestedAt !== undefined || existsSync(killMarkerFile(paths, record.id));
  const ended: ProcessRecord = { ...record, status: killed ? 'killed' : 'exited' };
  if (exit) {
    ended.exitCode = exit.code;
    ended.endedAt = new Date(exit.endedAtMs).toISOString();
    if (exit.signal !== undefined) ended.signal = exit.signal;
    if (exit.gaveUpAfter !== undefined && !killed) {
      ended.status = 'failed';
      ended.error = `crash loop: exit code ${exit.code} after ${exit.gaveUpAfter} restarts in a row (restart: ${record.restart?.policy ?? 'on-failure'}, max ${record.restart?.max ?? exit.gaveUpAfter})`;
    }
  } else {
    // The keeper ended without its exit file (killed, a reboot, a full disk): the code is
    // unknown; the signal is the one kill_process recorded (below), if it could.
    ended.exitCode = null;
    ended.endedAt = new Date(nowMs).toISOString();
  }
  if (killed && ended.signal === undefined) {
    const signal = killMarkerSignal(paths, record.id);
    if (signal !== undefined) ended.signal = signal;
  }
  return withRestarts(ended, paths);
}

// The keeper counts its restarts in a file (no store lock while no hub runs); copied in here.
function withRestarts(record: ProcessRecord, paths: HubPaths): ProcessRecord {
  const restarts = readRestarts(paths, record.id);
  return restarts === undefined || restarts === record.restarts ? record : { ...record, restarts };
}

export function isPrunable(record: ProcessRecord, nowMs = Date.now()): boolean {
  if (record.status === 'running' || record.endedAt === undefined) return false;
  return nowMs - Date.parse(record.endedAt) > PRUNE_AFTER_MS;
}

/** The keeper recorded for this process is still the live, non-zombie group leader. */
export const isKeeperAlive = (record: ProcessRecord): boolean =>
  record.startingBy === undefined &&
  isRecordedProcess(record.pid, {
    startTicks: record.startTicks,
    bootId: record.bootId,
    pgid: record.pgid ?? record.pid,
  });

// Members of the recorded group alive after its keeper ended (the keeper alone was killed, or a
// grandchild outlived the command). The group is ours while no other process holds its number
// as pid: the kernel does not reuse a pid that is still some live group's id.
export function orphanedGroupMembers(record: ProcessRecord): number[] {
  return ownsGroupIds(record) ? liveGroupMembers(record.pgid ?? record.pid) : [];
}

/** The record's group (and session) id still names its keeper: no other process holds that pid. */
export function ownsGroupIds(record: ProcessRecord): boolean {
  if (record.startTicks === undefined || record.startingBy !== undefined) return false;
  if (record.bootId !== undefined && record.bootId !== bootId()) return false;
  const pgid = record.pgid ?? record.pid;
  if (pgid <= 1) return false;
  const leader = readProcessIdentity(pgid);
  return !leader || (leader.startTicks === record.startTicks && leader.pgid === pgid);
}

/** The command still runs: its keeper is alive, or the keeper alone died and the group lives on. */
export const isGroupRunning = (record: ProcessRecord, paths: HubPaths): boolean =>
  record.status === 'running' && reconcileRecord(record, paths).status === 'running';
