// kill_process: a process's group, its strays and marked escapees stopped, and the record written.
import { closeSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HubPaths } from '../../core/paths.js';
import type { ProcessRecord } from '../../store/schema.js';
import type { Store } from '../../store/store.js';
import { HubError } from '../../core/errors.js';
import { liveGroupMembers } from '../../core/process-group.js';
import { isGroupRunning, killMarkerFile, ownsGroupIds, reconcileRecord } from './reconcile.js';
import { findRecord, readRecords, recordFiles } from './records.js';
import { clip } from '../../core/clip.js';
import { stopGroup, type KillSignal } from './stop.js';
import { escapedOf, liveSessionStrays } from '../keeper/session.js';
import { markedEscapees } from './marked.js';
import type { ProcessIdentity } from '../../core/process-identity.js';

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
  /**
   * Process groups that had left its group and were stopped too: in its session (setpgid), or
   * in a session of their own (setsid) but carrying its HUB_PROCESS_ID (marked.ts).
   */
  readonly escapedMembers: number;
  readonly removed: boolean;
  readonly waitedMs: number;
  /**
   * Set when the process was stopped but the store could not be written yet (retried in the
   * background), or when some of its processes could not be signalled.
   */
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
      if (remove) delete data.processes[id];
      else data.processes[id] = record;
      return record;
    });
}

// The log and run files go only once the store no longer has the record: a record that stays
// (the write failed) keeps its log.
const removeFiles = (paths: HubPaths, id: string): void => {
  for (const file of recordFiles(paths, id)) rmSync(file, { force: true });
};

interface Written {
  readonly record: ProcessRecord;
  readonly removed: boolean;
  readonly warning: string | undefined;
}

// Writes what kill_process did; on failure the result says what the store holds (unwritten():
// the record as list_processes shows it), so result and listing agree. A removal that could not
// be written is an error: the record and its log stay.
async function record(
  write: (remove: boolean) => Promise<ProcessRecord | undefined>,
  expected: ProcessRecord,
  unwritten: () => ProcessRecord,
  spec: KillSpec,
  done: string,
): Promise<Written> {
  let lastError: unknown;
  for (const pause of [0, ...RECORD_RETRY_MS]) {
    if (pause > 0) await sleep(pause);
    try {
      return { record: (await write(spec.remove)) ?? expected, removed: spec.remove, warning: undefined };
    } catch (error) {
      lastError = error;
    }
  }
  // Keep trying to record the end while this hub runs; any hub's next listing records it anyway.
  const retry = (index: number): void => {
    const pause = BACKGROUND_RETRY_MS[index];
    if (pause === undefined) return;
    setTimeout(() => void write(false).catch(() => retry(index + 1)), pause).unref();
  };
  retry(0);
  const reason = clip((lastError as Error | undefined)?.message ?? 'unknown error');
  if (spec.remove)
    throw new HubError(
      'STORE_UNWRITABLE',
      `${done}, but its record and log could not be removed: the store could not be written (${reason}). list_processes still shows it. Free space in HUB_HOME (or make its db.json writable), then call kill_process {"id":"${expected.id}","remove":true} again.`,
      { cause: lastError },
    );
  return {
    record: unwritten(),
    removed: false,
    warning: `The process was stopped, but its record could not be written yet (${reason}); hub keeps retrying, and the next list_processes records it once the store is writable.`,
  };
}

const groupsOf = (found: readonly ProcessIdentity[]): number => new Set(found.map(identity => identity.pgid)).size;

// After the signals: marked processes a stopped one forked meanwhile get one more SIGKILL round
// (group 0: no group, only these pids); what still runs, or was not ours to signal, is said.
async function escapeWarning(id: string, groups: ReadonlySet<number>, refused: readonly number[]) {
  const late = markedEscapees(id, groups).filter(found => !refused.includes(found.pid));
  const again = late.length > 0 ? await stopGroup(0, 'SIGKILL', 0, [], false, late) : undefined;
  const left = [...new Set([...refused, ...(again?.refused ?? []), ...(again?.survivors ?? [])])];
  return {
    late: groupsOf(late),
    warning:
      left.length === 0
        ? undefined
        : `${left.length} of its processes could not be stopped (pids ${left.slice(0, 10).join(', ')}): hub may not signal them (another user's now, e.g. through sudo) or they are stuck in the kernel.`,
  };
}

const joinWarnings = (...warnings: (string | undefined)[]): string | undefined =>
  warnings.filter(Boolean).join(' ') || undefined;

function markKilled(paths: HubPaths, id: string, signal: KillSignal): void {
  try {
    writeFileSync(killMarkerFile(paths, id), signal, { mode: 0o600 });
  } catch {
    // A full disk: an empty marker still says killed (the signal is then unknown).
    try {
      closeSync(openSync(killMarkerFile(paths, id), 'a', 0o600));
    } catch {
      // Best effort: the record written after the signals says killed too.
    }
  }
}

// SIGTERM (or the given signal) to the whole group, SIGKILL after grace, wait until no member
// lives. Signals first, store after: a kill must work when the store cannot be written. The
// group is signalled only while the recorded keeper is the live process (pid, start time, boot)
// or its group outlived it: a recycled pid is never signalled. Processes of the keeper's session
// that left the group (setpgid), and processes that left the session but carry its mark
// (setsid, marked.ts), are stopped with it. Killing an ended process returns its record.
export async function killProcess(store: Store, paths: HubPaths, spec: KillSpec): Promise<KillOutcome> {
  const found = await settled(store, paths, spec.reference);
  const pgid = found.pgid ?? found.pid;
  const signalledAtMs = Date.now();
  const write = (patch: Partial<ProcessRecord>) => async (remove: boolean) => {
    const written = await writer(store, paths, found.id, patch, remove, signalledAtMs)();
    if (remove) removeFiles(paths, found.id);
    return written;
  };
  if (!isGroupRunning(found, paths)) {
    // An ended process may leave grandchildren in its group, in its session (setpgid), or
    // marked in sessions of their own (setsid).
    const owned = ownsGroupIds(found);
    const strays = owned ? liveGroupMembers(pgid) : [];
    const escaped = owned ? liveSessionStrays(found) : [];
    const groups = new Set([pgid, ...escaped]);
    const marked = markedEscapees(found.id, groups);
    const outcome =
      strays.length + escaped.length + marked.length > 0
        ? await stopGroup(owned ? pgid : 0, spec.signal, spec.graceMs, escaped, false, marked)
        : undefined;
    const after = outcome ? await escapeWarning(found.id, groups, outcome.refused) : undefined;
    const done = `Process "${found.id}" had already ended${outcome ? ` (its leftover processes were stopped with ${spec.signal})` : ''}`;
    const unwritten = () => reconcileRecord(found, paths);
    const written = await record(write({}), found, unwritten, spec, done);
    return {
      record: written.record,
      alreadyEnded: true,
      signalSent: outcome ? spec.signal : undefined,
      escalated: outcome?.escalated ?? false,
      strayMembers: strays.length,
      escapedMembers: escapedOf(found, escaped).length + groupsOf(marked) + (after?.late ?? 0),
      removed: written.removed,
      waitedMs: outcome?.waitedMs ?? 0,
      warning: joinWarnings(after?.warning, written.warning),
    };
  }
  markKilled(paths, found.id, spec.signal);
  const escapees = liveSessionStrays(found);
  const groups = new Set([pgid, ...escapees]);
  const marked = markedEscapees(found.id, groups);
  // A tty's command (in its terminal's session) is signalled alone; its keeper follows it.
  const outcome = await stopGroup(pgid, spec.signal, spec.graceMs, escapees, found.tty !== undefined, marked);
  if (!outcome.stopped) {
    throw new HubError(
      'STOP_FAILED',
      `Process "${found.id}" (group ${pgid}) still has live members after SIGKILL (${[...liveGroupMembers(pgid), ...outcome.survivors].join(', ')}); they may be stuck in the kernel. Try kill_process again later.`,
    );
  }
  const after = await escapeWarning(found.id, groups, outcome.refused);
  // The keeper records the exit unless SIGKILL reached it first; then the signal is ours to
  // record, in the marker too (the store may not be writable: the listing reads it there).
  const signal: KillSignal = outcome.escalated || spec.signal === 'SIGKILL' ? 'SIGKILL' : spec.signal;
  if (signal !== spec.signal) markKilled(paths, found.id, signal);
  const patch: Partial<ProcessRecord> = { killRequestedAt: new Date(signalledAtMs).toISOString(), signal };
  const expected = { ...reconcileRecord({ ...found, ...patch }, paths), status: 'killed' as const };
  const unwritten = () => reconcileRecord(found, paths);
  const done = `Process "${found.id}" was stopped with ${spec.signal}${outcome.escalated ? ', escalated to SIGKILL' : ''}`;
  const written = await record(write(patch), expected, unwritten, spec, done);
  return {
    record: written.record,
    alreadyEnded: false,
    signalSent: spec.signal,
    escalated: outcome.escalated,
    strayMembers: 0,
    escapedMembers: escapedOf(found, escapees).length + groupsOf(marked) + after.late,
    removed: written.removed,
    waitedMs: outcome.waitedMs,
    warning: joinWarnings(after.warning, written.warning),
  };
}
