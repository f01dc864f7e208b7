// send_input, get_process_screen, resize and restart_process over the process records.
import { HubError } from '../../core/errors.js';
import type { HubPaths } from '../../core/paths.js';
import type { ProcessRecord } from '../../store/schema.js';
import type { Store } from '../../store/store.js';
import { resizePty, type TtySize } from '../keeper/pty.js';
import { isGroupRunning } from '../lifecycle/reconcile.js';
import { logSize, newRunOffset, restartProcess, type RestartOutcome } from '../lifecycle/restart.js';
import { waitForReady, waitOf, type WaitOutcome } from '../lifecycle/wait-for.js';
import type { Screen } from './screen.js';
import { sendInput, type SendOutcome, type SendSpec } from './send.js';

export interface InteractiveDeps {
  readonly paths: HubPaths;
  readonly store: Store;
  readonly logCapBytes: number;
  readonly logReadBytes: number;
  readonly maxRunning: number;
  readonly baseEnv: NodeJS.ProcessEnv;
  /** The current record of an id or name (reconciled). */
  readonly find: (reference: string) => Promise<ProcessRecord>;
}

function ended(record: ProcessRecord): HubError {
  const how = record.exitCode === undefined || record.exitCode === null ? '' : `, exit code ${record.exitCode}`;
  return new HubError(
    'PROCESS_ENDED',
    `Field "id": process "${record.id}" has ended (${record.status}${how}); restart_process {"id":"${record.id}"} runs it again.`,
  );
}

function needsTty(record: ProcessRecord, field: string): TtySize {
  if (record.tty) return record.tty;
  throw new HubError(
    'INVALID_INPUT',
    `Field "${field}": process "${record.id}" has no terminal (started without tty: true); get_process_logs shows its output.`,
  );
}

// send_input, get_process_screen, resize and restart_process over the records.
export function createInteractive(deps: InteractiveDeps) {
  const { paths, store } = deps;

  const resize = async (record: ProcessRecord, size: TtySize): Promise<ProcessRecord> => {
    needsTty(record, 'resize');
    resizePty(record, size);
    return store.update(data => {
      const stored = data.processes[record.id];
      if (!stored) return record;
      data.processes[record.id] = { ...stored, tty: { cols: size.cols, rows: size.rows } };
      return data.processes[record.id] as ProcessRecord;
    });
  };

  return {
    async send(
      reference: string,
      spec: SendSpec & { readonly resize?: TtySize | undefined },
      signal: AbortSignal,
    ): Promise<{ record: ProcessRecord; outcome: SendOutcome }> {
      const record = await deps.find(reference);
      if (record.status !== 'running') throw ended(record);
      const size = spec.resize;
      if (size) needsTty(record, 'resize');
      const outcome = await sendInput(
        paths,
        record,
        { ...spec, before: size && (() => resize(record, size)) },
        () => isGroupRunning(record, paths),
        deps.logReadBytes,
        signal,
      );
      return { record: await deps.find(record.id), outcome };
    },

    async screen(reference: string): Promise<{ record: ProcessRecord; screen: Screen }> {
      const record = await deps.find(reference);
      const size = needsTty(record, 'id');
      // xterm loads only when a screen is asked for.
      const { renderScreen } = await import('./screen.js');
      return { record, screen: await renderScreen(record.logFile, size) };
    },

    /** With a signal, waits for the new run as start_process's wait_for did, when it had one. */
    async restart(
      reference: string,
      graceMs: number,
      signal?: AbortSignal,
    ): Promise<RestartOutcome & { readonly wait: WaitOutcome | undefined }> {
      const before = logSize((await deps.find(reference)).logFile);
      const outcome = await restartProcess(deps, reference, graceMs);
      let record = await deps.find(outcome.record.id);
      const ready = record.ready;
      if (!ready || !signal || record.status !== 'running') return { ...outcome, record, wait: undefined };
      const from = newRunOffset(record.logFile, before, record.restarts ?? 0);
      const wait = await waitForReady(waitOf(ready), record.logFile, () => isGroupRunning(record, paths), signal, from);
      record = await deps.find(record.id);
      return { ...outcome, record, wait };
    },
  };
}
