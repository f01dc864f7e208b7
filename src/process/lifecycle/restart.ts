// restart_process: the command run again by its live keeper, or a new keeper under the same record.
import { appendFileSync, closeSync, fstatSync, openSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { HubError } from '../../core/errors.js';
import type { HubPaths } from '../../core/paths.js';
import { liveProcesses } from '../../core/process-group.js';
import { readProcessIdentity } from '../../core/process-identity.js';
import type { ProcessRecord } from '../../store/schema.js';
import { clip } from '../../core/clip.js';
import { isKeeperAlive, killMarkerFile, orphanedGroupMembers } from './reconcile.js';
import { findRecord, reconcileAll } from './records.js';
import { commandTree, sessionsUnder } from '../keeper/process-tree.js';
import { readEnvFile, readRestarts, restartRequestFile, restartsFile } from '../keeper/run-files.js';
import { launchKeeper, type StartContext } from './start.js';
import { stopGroup } from './stop.js';

const POLL_MS = 20;
const AFTER_KILL_MS = 5_000;

export interface RestartOutcome {
  readonly record: ProcessRecord;
  /** keeper: the live keeper ran the command again; respawned: a new keeper under the same record. */
  readonly via: 'keeper' | 'respawned';
}

type Pinned = { readonly pid: number; readonly startTicks: number };

// The command's processes now (not the keeper, nor its log-cap subshell), pinned by start time so
// a signal sent later never reaches the next run.
// In a terminal, only what runs inside it: util-linux script answers a signal with its own
// SIGTERM to the command and SIGKILL 2 s later (whatever grace_ms says), and ends by itself
// once the command has.
function commandProcesses(record: ProcessRecord): Pinned[] {
  const sessions = new Set(sessionsUnder(record.pid));
  const inTerminal = liveProcesses(identity => sessions.has(identity.sid)).map(identity => identity.pid);
  const pids = new Set(
    record.tty !== undefined && inTerminal.length > 0 ? inTerminal : [...commandTree(record.pid), ...inTerminal],
  );
  return [...pids].flatMap(pid => {
    const identity = readProcessIdentity(pid);
    return identity ? [{ pid, startTicks: identity.startTicks }] : [];
  });
}

function signalPinned(targets: readonly Pinned[], signal: NodeJS.Signals): void {
  for (const target of targets) {
    if (readProcessIdentity(target.pid)?.startTicks !== target.startTicks) continue;
    try {
      process.kill(target.pid, signal);
    } catch {
      // Gone meanwhile.
    }
  }
}

const lastByte = (file: string): number | undefined => {
  try {
    const fd = openSync(file, 'r');
    try {
      const size = fstatSync(fd).size;
      const byte = Buffer.alloc(1);
      return size > 0 && readSync(fd, byte, 0, 1, size - 1) === 1 ? byte[0] : undefined;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
};

// As the keeper writes it: on a line of its own, ending as a terminal's lines do for a tty.
function markerLine(record: ProcessRecord, text: string): string {
  const end = record.tty === undefined ? '\n' : '\r\n';
  const last = lastByte(record.logFile);
  return `${last === undefined || last === 0x0a ? '' : end}${text}${end}`;
}

async function waitFor(check: () => boolean, untilMs: number): Promise<boolean> {
  for (;;) {
    if (check()) return true;
    if (Date.now() >= untilMs) return false;
    await sleep(POLL_MS);
  }
}

// A live keeper runs the command again itself: hub leaves a request file, stops the command
// (SIGTERM, SIGKILL after grace) and waits for the keeper to count the new run.
async function restartThroughKeeper(paths: HubPaths, record: ProcessRecord, graceMs: number): Promise<boolean> {
  const before = readRestarts(paths, record.id) ?? record.restarts ?? 0;
  writeFileSync(restartRequestFile(paths, record.id), '', { mode: 0o600 });
  const counted = () => (readRestarts(paths, record.id) ?? 0) > before || !isKeeperAlive(record);
  const targets = commandProcesses(record);
  signalPinned(targets, 'SIGTERM');
  if (await waitFor(counted, Date.now() + graceMs)) return isKeeperAlive(record);
  signalPinned(targets, 'SIGKILL');
  return (await waitFor(counted, Date.now() + AFTER_KILL_MS)) && isKeeperAlive(record);
}

const MARKER_LOOK_BYTES = 1024 * 1024;

/** The size of a log now: where a restart's new run will start. */
export function logSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/**
 * Where run `restarts` starts in the log: after its restart marker, looked for from `before` (the
 * size when the restart was asked). Falls back to before, or to 0 when the log was cut since.
 */
export function newRunOffset(file: string, before: number, restarts: number): number {
  if (logSize(file) < before) return 0;
  try {
    const fd = openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(MARKER_LOOK_BYTES);
      const read = readSync(fd, buffer, 0, buffer.length, before);
      const marker = buffer.subarray(0, read).indexOf(`[hub: restart ${restarts} (`);
      if (marker === -1) return before;
      const end = buffer.subarray(0, read).indexOf(0x0a, marker);
      return before + (end === -1 ? read : end + 1);
    } finally {
      closeSync(fd);
    }
  } catch {
    return before;
  }
}

/** Runs a process's command again under the same record, name and log. */
export async function restartProcess(
  context: Pick<StartContext, 'paths' | 'store' | 'logCapBytes' | 'baseEnv' | 'maxRunning'>,
  reference: string,
  graceMs: number,
): Promise<RestartOutcome> {
  const { paths, store } = context;
  const found = findRecord(Object.values((await store.read()).processes), reference);
  if (found.startingBy !== undefined)
    throw new HubError('STORE_BUSY', `Process "${found.id}" is still being started; try again in a moment.`);
  if (found.status === 'running' && isKeeperAlive(found) && (await restartThroughKeeper(paths, found, graceMs)))
    return { record: found, via: 'keeper' };
  // The keeper has ended (or was killed): leftovers of its group go, then a new keeper.
  if (orphanedGroupMembers(found).length > 0) await stopGroup(found.pgid ?? found.pid, 'SIGTERM', graceMs);
  const env = readEnvFile(paths, found.id);
  if (env === undefined && found.envKeys.length > 0)
    throw new HubError(
      'INVALID_INPUT',
      `Field "id": the env values of process "${found.id}" were not kept (${found.envKeys.join(', ')}); start_process it again with env.`,
    );
  const record = await store.update(data => {
    reconcileAll(data, paths);
    const current = data.processes[found.id];
    if (!current) throw new HubError('NOT_FOUND', `Process "${found.id}" was removed meanwhile.`);
    const running = Object.values(data.processes).filter(other => other.status === 'running');
    if (current.status === 'running')
      throw new HubError('STORE_BUSY', `Process "${found.id}" is running again (another hub restarted it).`);
    if (current.name !== undefined && running.some(other => other.name === current.name))
      throw new HubError(
        'ALREADY_EXISTS',
        `Field "id": another running process is named "${clip(current.name)}"; kill_process it first.`,
      );
    if (running.length >= context.maxRunning)
      throw new HubError('LIMIT', `${running.length} processes are running, the limit is ${context.maxRunning}.`);
    const restarts = (current.restarts ?? 0) + 1;
    for (const file of [paths.processExitFile(current.id), killMarkerFile(paths, current.id)])
      rmSync(file, { force: true });
    rmSync(restartRequestFile(paths, current.id), { force: true });
    writeFileSync(restartsFile(paths, current.id), `${restarts}\n`, { mode: 0o600 });
    appendFileSync(
      current.logFile,
      markerLine(current, `[hub: restart ${restarts} (requested) after exit code ${current.exitCode ?? 'unknown'}]`),
      { mode: 0o600 },
    );
    const {
      endedAt: _endedAt,
      exitCode: _exitCode,
      signal: _signal,
      error: _error,
      killRequestedAt: _killRequestedAt,
      ...rest
    } = current;
    const next: ProcessRecord = { ...rest, status: 'running', restarts };
    const keeper = launchKeeper(context, next, env ?? {});
    data.processes[current.id] = { ...next, ...keeper };
    return data.processes[current.id] as ProcessRecord;
  });
  return { record, via: 'respawned' };
}
