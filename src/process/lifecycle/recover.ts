// Records settled against the keepers found running after a restart: none runs unseen.
import type { HubPaths } from '../../core/paths.js';
import type { ProcessRecord, StoreData } from '../../store/schema.js';
import { readExitFile } from '../keeper/exit-file.js';
import { platform } from '../../core/platform/platform.js';
import { bootId, isSameProcess } from '../../core/process-identity.js';
import type { FoundKeeper } from '../keeper/scan.js';

// Settles records against the keepers found running (keeper/scan.ts):
// - a record still being started (startingBy) gets its keeper once it exists; when the hub that
//   was starting it is gone and no keeper exists, it failed to start;
// - a live keeper of this HUB_HOME with no record, or whose record says it ended, is recorded
//   (again) as running: no process a hub started can run on unseen.

// When a keeper started, from its start ticks (core/platform/platform.ts: /proc/stat's boot time on Linux).
function startedAtOf(keeper: FoundKeeper, nowMs: number): string {
  const ms = platform().processes.startedAtMs(keeper.startTicks) ?? nowMs;
  return new Date(Math.min(Math.round(ms), nowMs)).toISOString();
}

const keeperFields = (keeper: FoundKeeper) => ({
  pid: keeper.pid,
  pgid: keeper.pid,
  startTicks: keeper.startTicks,
  bootId: bootId(),
});

function recovered(keeper: FoundKeeper, paths: HubPaths, nowMs: number): ProcessRecord {
  return {
    id: keeper.id,
    command: keeper.command,
    ...(keeper.args !== undefined && { args: keeper.args }),
    cwd: keeper.cwd ?? '/',
    envKeys: [],
    tags: [],
    ports: [],
    ...keeperFields(keeper),
    status: 'running',
    startedAt: startedAtOf(keeper, nowMs),
    logFile: paths.processLog(keeper.id),
    recoveredAt: new Date(nowMs).toISOString(),
    ...(keeper.tty && { tty: keeper.tty }),
    ...(keeper.restart && { restart: keeper.restart }),
  };
}

// The starting hub is gone and no keeper runs: the keeper ran and ended (its exit file says
// how), or it was never started.
function endedWithoutKeeper(record: ProcessRecord, paths: HubPaths, nowMs: number): ProcessRecord {
  const exit = readExitFile(paths.processExitFile(record.id));
  if (exit)
    return {
      ...record,
      status: 'exited',
      exitCode: exit.code,
      endedAt: new Date(exit.endedAtMs).toISOString(),
      ...(exit.signal !== undefined && { signal: exit.signal }),
    };
  return {
    ...record,
    status: 'failed',
    exitCode: null,
    endedAt: new Date(nowMs).toISOString(),
    error: 'the hub starting it stopped before the process was started',
  };
}

/** Applies the keepers found to data; true when a record changed. */
export function applyKeepers(
  data: StoreData,
  keepers: ReadonlyMap<string, FoundKeeper>,
  paths: HubPaths,
  nowMs = Date.now(),
): boolean {
  let changed = false;
  for (const [id, record] of Object.entries(data.processes)) {
    if (record.startingBy === undefined) continue;
    const keeper = keepers.get(id);
    const { startingBy, ...rest } = record;
    if (keeper) data.processes[id] = { ...rest, ...keeperFields(keeper) };
    else if (isSameProcess(startingBy.pid, startingBy.startTicks)) continue;
    else data.processes[id] = endedWithoutKeeper(rest, paths, nowMs);
    changed = true;
  }
  for (const keeper of keepers.values()) {
    const record = data.processes[keeper.id];
    if (record?.status === 'running') continue;
    if (!record) data.processes[keeper.id] = recovered(keeper, paths, nowMs);
    else {
      // Recorded as ended (or failed to start) while its keeper runs: it is running.
      const { endedAt: _endedAt, exitCode: _exitCode, signal: _signal, error: _error, ...rest } = record;
      data.processes[keeper.id] = {
        ...rest,
        ...keeperFields(keeper),
        status: 'running',
        recoveredAt: new Date(nowMs).toISOString(),
      };
    }
    changed = true;
  }
  return changed;
}

// A record whose starting hub is gone must be settled from /proc; while that hub lives it
// records the keeper itself, so no scan (it reads every process's cmdline) is needed for it.
export const hasAbandonedStart = (data: StoreData): boolean =>
  Object.values(data.processes).some(
    record => record.startingBy !== undefined && !isSameProcess(record.startingBy.pid, record.startingBy.startTicks),
  );
