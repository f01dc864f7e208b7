// The ProcessManager: detached processes recorded in the store, shared by the tools and the CLI.
import type { HubPaths } from '../core/paths.js';
import type { Logger } from '../core/logger.js';
import type { ProcessRecord, ProcessStatus } from '../store/schema.js';
import type { Store } from '../store/store.js';
import { enforceLogCap } from './keeper/log-cap.js';
import type { LineMatcher } from './logs/line-match.js';
import { readLogSince, tailLog, type LogSlice } from './logs/read.js';
import { killProcess, type KillOutcome, type KillSpec } from './lifecycle/kill.js';
import { allocatePort, type FreePort } from './lifecycle/ports.js';
import { isGroupRunning } from './lifecycle/reconcile.js';
import { byStartTime, currentRecords, findRecord } from './lifecycle/records.js';
import { markFailed, settleBriefly, startProcess, type StartSpec } from './lifecycle/start.js';
import { readyOf, waitForReady, type WaitOutcome, type WaitSpec } from './lifecycle/wait-for.js';
import { firstProgramOfShellLine } from './lifecycle/resolve-command.js';
import { waitForCommandStarted } from './keeper/keeper.js';
import { HubError } from '../core/errors.js';
import { readProcessIdentity } from '../core/process-identity.js';
import { createInteractive } from './terminal/interactive.js';
import { tracedActions } from './traced-actions.js';
import { withAudit } from './audit-actions.js';
import { auditLog } from '../store/audit/log.js';

const CAP_CHECK_MS = 5_000;
// A shell line whose program could not be checked up front gets this long to fail with 127.
const SHELL_SETTLE_MS = 150;
const START_TAIL_LINES = 20;
const SCAN_EVERY_MS = 10_000;

export interface ProcessManagerOptions {
  readonly paths: HubPaths;
  readonly store: Store;
  readonly log: Logger;
  readonly maxRunning: number;
  readonly logCapBytes: number;
  /** Most bytes of log text one call returns. */
  readonly logReadBytes: number;
  readonly baseCwd?: string;
  readonly baseEnv?: NodeJS.ProcessEnv;
}

export interface StartOutcome {
  readonly record: ProcessRecord;
  readonly wait: WaitOutcome | undefined;
  readonly tail: string[];
  /** This very call had started it already, on a shared hub that died before it answered. */
  readonly alreadyStarted?: boolean;
}

export interface LogsRequest {
  readonly reference: string;
  readonly lines: number;
  readonly cursor?: number | undefined;
  readonly grep?: LineMatcher | undefined;
  readonly raw?: boolean | undefined;
}

export interface ListFilter {
  readonly status?: ProcessStatus | undefined;
  readonly tag?: string | undefined;
  readonly name?: string | undefined;
}

export type ProcessManager = ReturnType<typeof createProcessManager>;

// Managed processes: detached, recorded in the store, outliving hub. Shared by the tools and the CLI.
export function createProcessManager(options: ProcessManagerOptions) {
  const { paths, store, log } = options;
  let capTimer: NodeJS.Timeout | undefined;

  const enforceCaps = (records: readonly ProcessRecord[]): void => {
    let running = 0;
    for (const record of records) {
      if (record.status !== 'running') continue;
      running += 1;
      const cut = enforceLogCap(record.logFile, options.logCapBytes);
      if (cut > 0) log.info({ process: record.id, cutBytes: cut }, 'log over its cap: oldest part truncated');
    }
    // Checked on a timer only while something runs, so a quiet hub does no work.
    if (running > 0 && !capTimer) {
      capTimer = setInterval(() => {
        currentRecords(store, paths).then(enforceCaps, (error: unknown) =>
          log.warn({ err: error }, 'log cap check failed'),
        );
      }, CAP_CHECK_MS);
      capTimer.unref();
    } else if (running === 0 && capTimer) {
      clearInterval(capTimer);
      capTimer = undefined;
    }
  };

  // /proc is searched for keepers no record knows (a hub killed mid-start, lost records) on the
  // first listing and then at most every SCAN_EVERY_MS: a scan reads every process's cmdline.
  let lastScanMs = Number.NEGATIVE_INFINITY;
  const records = async (): Promise<ProcessRecord[]> => {
    const scan = Date.now() - lastScanMs >= SCAN_EVERY_MS;
    if (scan) lastScanMs = Date.now();
    const list = await currentRecords(store, paths, { scan });
    enforceCaps(list);
    return list;
  };

  const tail = (record: ProcessRecord, lines: number): string[] =>
    tailLog(record.logFile, { lines, maxBytes: options.logReadBytes }).lines;

  // start, kill and restart are spans when telemetry is on (traced-actions.ts), and on the audit log.
  const manager = tracedActions({
    /** base: the calling session's cwd and env (a shared hub's client runs elsewhere than hub). */
    async start(
      spec: Omit<StartSpec, 'ready'>,
      wait: WaitSpec | undefined,
      signal: AbortSignal,
      base?: {
        readonly cwd?: string | undefined;
        readonly env?: Readonly<Record<string, string | undefined>> | undefined;
      },
    ): Promise<StartOutcome> {
      // The same call sent again by its entry after the shared hub died (hub-link/entry.ts): the
      // process that call started, on another hub, is the answer, waited for as asked. Only a
      // dead hub could have started it: no lock is needed against a second start of the same call.
      const self = readProcessIdentity(process.pid);
      const hub = `${process.pid}@${self?.startTicks ?? 0}`;
      const earlier =
        spec.startCall === undefined
          ? undefined
          : (await records()).find(
              record =>
                record.startCall?.call === spec.startCall &&
                record.startCall?.hub !== hub &&
                record.status !== 'failed',
            );
      if (earlier) {
        const isRunning = () => isGroupRunning(earlier, paths);
        const outcome = wait && isRunning() ? await waitForReady(wait, earlier.logFile, isRunning, signal) : undefined;
        log.info(
          { process: earlier.id },
          'start_process sent again after a hub-mcp restart: returning the process it started',
        );
        const record = findRecord(await records(), earlier.id);
        return { record, wait: outcome, tail: tail(record, START_TAIL_LINES), alreadyStarted: true };
      }
      const started = await startProcess(
        {
          paths,
          store,
          maxRunning: options.maxRunning,
          logCapBytes: options.logCapBytes,
          baseCwd: base?.cwd ?? options.baseCwd ?? process.cwd(),
          baseEnv: (base?.env as NodeJS.ProcessEnv | undefined) ?? options.baseEnv ?? process.env,
        },
        // The wait is kept with the record: restart_process waits the same way.
        wait ? { ...spec, ready: readyOf(wait) } : spec,
      );
      log.info(
        { process: started.id, pid: started.pid, name: started.name, envKeys: started.envKeys },
        'process started',
      );
      const isRunning = () => isGroupRunning(started, paths);
      await waitForCommandStarted(started.pid, isRunning);
      let outcome: WaitOutcome | undefined;
      if (wait) outcome = await waitForReady(wait, started.logFile, isRunning, signal);
      else if (spec.args === undefined && firstProgramOfShellLine(spec.command) === undefined)
        await settleBriefly(isRunning, SHELL_SETTLE_MS);
      let record = findRecord(await records(), started.id);
      if (spec.args === undefined && record.status !== 'running' && record.exitCode === 127) {
        const lines = tail(record, 5);
        record =
          (await markFailed(store, record.id, `the shell could not find the command: ${lines.at(-1) ?? ''}`)) ?? record;
        throw new HubError(
          'SPAWN_FAILED',
          `Field "command": the shell could not run "${spec.command}" (exit 127, command not found): ${lines.join(' | ')}. Process "${record.id}" is recorded as failed.`,
        );
      }
      enforceCaps([record]);
      return { record, wait: outcome, tail: tail(record, START_TAIL_LINES) };
    },

    async list(filter: ListFilter = {}): Promise<ProcessRecord[]> {
      return (await records())
        .filter(
          record =>
            (filter.status === undefined || record.status === filter.status) &&
            (filter.tag === undefined || record.tags.includes(filter.tag)) &&
            (filter.name === undefined || record.name === filter.name),
        )
        .sort(byStartTime);
    },

    async get(reference: string): Promise<ProcessRecord> {
      return findRecord(await records(), reference);
    },

    async logs(request: LogsRequest): Promise<{ record: ProcessRecord; slice: LogSlice }> {
      const record = findRecord(await records(), request.reference);
      const read = { lines: request.lines, grep: request.grep, raw: request.raw, maxBytes: options.logReadBytes };
      const slice =
        request.cursor === undefined
          ? tailLog(record.logFile, read)
          : readLogSince(record.logFile, {
              ...read,
              cursor: request.cursor,
              holdPartialLine: record.status === 'running',
            });
      return { record, slice };
    },

    kill: (spec: KillSpec): Promise<KillOutcome> => killProcess(store, paths, spec),

    ...createInteractive({
      paths,
      store,
      logCapBytes: options.logCapBytes,
      logReadBytes: options.logReadBytes,
      maxRunning: options.maxRunning,
      baseEnv: options.baseEnv ?? process.env,
      find: async reference => findRecord(await records(), reference),
    }),

    freePort: (preferred: readonly number[], host: string | undefined): Promise<FreePort> =>
      allocatePort(store, paths, preferred, host),

    close(): void {
      if (capTimer) clearInterval(capTimer);
      capTimer = undefined;
    },
  });
  return withAudit(manager, auditLog(paths));
}
