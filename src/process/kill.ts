import { closeSync, openSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HubPaths } from '../core/paths.js';
import type { ProcessRecord } from '../store/schema.js';
import type { Store } from '../store/store.js';
import { HubError } from '../core/errors.js';
import { liveGroupMembers } from '../core/process-group.js';
import { isGroupRunning, killMarkerFile, ownsGroupIds, reconcileRecord } from './reconcile.js';
import { findRecord, forgetRecord, readRecords } from './records.js';
import { clip } from './clip.js';
import { stopGroup, type KillSignal } from './stop.js';
import { escapedOf, liveSessionStrays } from './session.js';

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
  /** Processes of its session that had left the group (setpgid) and were stopped too. */
  readonly escapedMembers: number;
  readonly removed: boolean;
  readonly waitedMs: number;
  /** Set when the process was stopped but the store could not be written yet (retried in the background). */
  readonly warning: string | undefined;
}

// A record still being started (its keeper not yet recorded) settles within a moment.
const STARTING_WAIT_MS = 5_000;
// After the signals, the record is written with these pauses between tries; then in the background.
const RECORD_RETRY_MS = [250, 1_000];
const BACKGROUND_RETRY_MS = [2_000, 10_000, 30_000];

async function settled(store: Store, paths: HubPaths, reference: string): Promise<ProcessRecord> {
  const until = Date.now() + STARTING_WAIT_MS;
  for (;;) {
    const found = findRecord(await readRecords(store, paths), reference);
    if (found.startingBy === undefined) return found;
    if (Date.now() >= until)
      throw new HubError(
        'STORE_BUSY',
        `Process "${found.id}" is still being started by hub pid ${found.startingBy.pid}; try kill_process again in a moment.`,
      );
    await sleep(50);
  }
}

// What is written after the signals: the kill (unless the keeper's own exit already recorded
// more), or the record's removal. The store may refuse (full disk, frozen lock holder): the
// process is stopped all the same, so the caller gets the outcome with a warning.
function writer(
  store: Store,
  paths: HubPaths,
  id: string,
  patch: Partial<ProcessRecord>,
  remove: boolean,
  signalledAtMs: number,
) {
  return () =>
    store.update(data => {
      const stored = data.processes[id];
      if (!stored) return undefined;
      let record = reconcileRecord({ ...stored, ...patch }, paths);
      // Another hub may have recorded the end as an exit meanwhile: it ended by our signal.
      if (
        record.status === 'exited' &&
        patch.killRequestedAt !== undefined &&
        Date.parse(record.endedAt ?? '') >= signalledAtMs
      )
        record = { ...record, status: 'killed' };
      if (remove) forgetRecord(data, paths, id);
      else data.processes[id] = record;
      return record;
    });
}

async function record(
  write: () => Promise<ProcessRecord | undefined>,
  expected: ProcessRecord,
): Promise<{ record: ProcessRecord; warning: string | undefined }> {
  let lastError: unknown;
  for (const pause of [0, ...RECORD_RETRY_MS]) {
    if (pause > 0) await sleep(pause);
    try {
      return { record: (await write()) ?? expected, warning: undefined };
    } catch (error) {
      lastError = error;
    }
  }
  // Keep trying while this hub runs; any hub's next listing records the end anyway.
  const retry = (index: number): void => {
    const pause = BACKGROUND_RETRY_MS[index];
    if (pause === undefined) return;
    setTimeout(() => void write().catch(() => retry(index + 1)), pause).unref();
  };
  retry(0);
  const reason = clip((lastError as Error | undefined)?.message ?? 'unknown error');
  return {
    record: expected,
    warning: `The process was stopped, but its record could not be written yet (${reason}); hub keeps retrying, and the next list_processes records it once the store is writable.`,
  };
}

// SIGTERM (or the given signal) to the whole group, SIGKILL after grace, wait until no member
// lives. Signals first, store after: a kill must work when the store cannot be written. The
// group is signalled only while the recorded keeper is the live process (pid, start time, boot)
// or its group outlived it: a recycled pid is never signalled. Processes of the keeper's session
// that left the group (setpgid) are stopped with it. Killing an ended process returns its record.
export async function killProcess(store: Store, paths: HubPaths, spec: KillSpec): Promise<KillOutcome> {
  const found = await settled(store, paths, spec.reference);
  const pgid = found.pgid ?? found.pid;
  const signalledAtMs = Date.now();
  if (!isGroupRunning(found, paths)) {
    // An ended process may leave grandchildren in its group, or in its session (setpgid).
    const owned = ownsGroupIds(found);
    const strays = owned ? liveGroupMembers(pgid) : [];
    const escaped = owned ? liveSessionStrays(found) : [];
    const outcome =
      strays.length + escaped.length > 0 ? await stopGroup(pgid, spec.signal, spec.graceMs, escaped) : undefined;
    const written = await record(writer(store, paths, found.id, {}, spec.remove, signalledAtMs), found);
    return {
      record: written.record,
      alreadyEnded: true,
      signalSent: outcome ? spec.signal : undefined,
      escalated: outcome?.escalated ?? false,
      strayMembers: strays.length,
      escapedMembers: escapedOf(found, escaped).length,
      removed: spec.remove,
      waitedMs: outcome?.waitedMs ?? 0,
      warning: written.warning,
    };
  }
  try {
    closeSync(openSync(killMarkerFile(paths, found.id), 'w', 0o600));
  } catch {
    // Best effort: the record written after the signals says killed too.
  }
  const escapees = liveSessionStrays(found);
  const escapedMembers = escapedOf(found, escapees).length;
  // A tty's command (in its terminal's session) is signalled alone; its keeper follows it.
  const outcome = await stopGroup(pgid, spec.signal, spec.graceMs, escapees, found.tty !== undefined);
  if (!outcome.stopped) {
    throw new HubError(
      'STOP_FAILED',
      `Process "${found.id}" (group ${pgid}) still has live members after SIGKILL (${[...liveGroupMembers(pgid), ...outcome.survivors].join(', ')}); they may be stuck in the kernel. Try kill_process again later.`,
    );
  }
  // The keeper records the exit unless SIGKILL reached it first; then the signal is ours to record.
  const patch: Partial<ProcessRecord> = {
    killRequestedAt: new Date(signalledAtMs).toISOString(),
    signal: outcome.escalated || spec.signal === 'SIGKILL' ? 'SIGKILL' : spec.signal,
  };
  const expected = { ...reconcileRecord({ ...found, ...patch }, paths), status: 'killed' as const };
  const written = await record(writer(store, paths, found.id, patch, spec.remove, signalledAtMs), expected);
  return {
    record: written.record,
    alreadyEnded: false,
    signalSent: spec.signal,
    escalated: outcome.escalated,
    strayMembers: 0,
    escapedMembers,
    removed: spec.remove,
    waitedMs: outcome.waitedMs,
    warning: written.warning,
  };
}
