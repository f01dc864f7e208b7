import { compileLinePattern } from '../process/logs/line-match.js';
import { assertProcessesSupported } from '../core/platform/platform.js';
import { readProcessIdentity } from '../core/process-identity.js';
import type { ProcessManager } from '../process/manager.js';
import { renderKill, renderLogs, renderStart } from '../process/render.js';
import { toProcessView } from '../process/view.js';
import { defineTool, type ToolDeps, type ToolGroup } from './define.js';
import { logLink } from './hub-uris.js';
import { processListResult } from './process-list.js';
import { createInteractiveTools } from './interactive-tools.js';
import { checkWatch, createProcessEvents, type ProcessEvents } from './process-events.js';
import {
  StartInputSchema,
  StartOutputSchema,
  ListInputSchema,
  ListOutputSchema,
  LogsInputSchema,
  LogsOutputSchema,
  KillInputSchema,
  KillOutputSchema,
  PortInputSchema,
  PortOutputSchema,
} from './process-schemas.js';

const LOG_TEXT_RESERVE_BYTES = 4 * 1024;

// Claude Code and Codex show the model only structuredContent: the guidance goes there too.
function nextAfterStart(id: string, status: string): string {
  const logs = `get_process_logs {"id":"${id}"}`;
  return status === 'running'
    ? `${logs} reads its output (pass next_cursor back as cursor to follow it); kill_process {"id":"${id}"} stops it.`
    : `It is no longer running (${status}): ${logs} shows why.`;
}

function nextAfterLogs(id: string, cursor: number, more: boolean): string {
  return more
    ? `More output follows: get_process_logs {"id":"${id}","cursor":${cursor}}.`
    : `For newer output only: get_process_logs {"id":"${id}","cursor":${cursor}}.`;
}

// start_process, list_processes, get_process_logs, kill_process, get_free_port: thin handlers
// over the ProcessManager (src/process/), which the CLI uses too.
/** The process manager, loaded on first use: the process code (spawning, logs, ports) is not needed to list. */
export function lazyProcessManager(deps: Pick<ToolDeps, 'config' | 'store' | 'log'>): () => Promise<ProcessManager> {
  const { config } = deps;
  let manager: Promise<ProcessManager> | undefined;
  return () =>
    (manager ??= import('../process/manager.js').then(module => {
      // On a system hub cannot manage processes on, every process tool answers this one error.
      assertProcessesSupported();
      return module.createProcessManager({
        paths: config.paths,
        store: deps.store,
        log: deps.log.child({ module: 'process' }),
        maxRunning: config.maxRunningProcesses,
        logCapBytes: config.logCapBytes,
        logReadBytes: Math.max(16 * 1024, config.resultCapBytes - LOG_TEXT_RESERVE_BYTES),
      });
    }));
}

const startCallOf = (entry: string | undefined, id: string | number | undefined): string | undefined =>
  entry === undefined || id === undefined ? undefined : `${entry}#${JSON.stringify(id)}`;

/** A session's own working directory and environment: what a relative cwd and the child env start from. */
export interface ProcessBase {
  readonly cwd?: string | undefined;
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** The session's entry process, when it has one: with the JSON-RPC id, names a start_process call. */
  readonly entryPid?: number | undefined;
}

// The entry named for good (pid and start time): a start_process its entry sends again after a
// shared hub died is known by it and its JSON-RPC id.
function entryOf(pid: number | undefined): string | undefined {
  const identity = pid === undefined ? undefined : readProcessIdentity(pid);
  return identity && `${identity.pid}@${identity.startTicks}`;
}

// The SDK's request context carries the call's JSON-RPC id.
const requestIdOf = (extra: unknown): string | number | undefined => {
  const id = (extra as { requestId?: unknown } | undefined)?.requestId;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
};

export function createProcessTools(
  deps: ToolDeps,
  /** A hub core's manager (shared by its sessions) and this session's cwd and env. */
  shared?: { manager: () => Promise<ProcessManager>; base?: ProcessBase },
): ToolGroup & { manager(): Promise<ProcessManager>; decorate: ProcessEvents['decorate'] } {
  const { config } = deps;
  const source = shared?.manager ?? lazyProcessManager(deps);
  let used = false;
  const managerOf = () => ((used = true), source());
  const base = shared?.base;
  const entry = entryOf(base?.entryPid);
  // start_process's watch: this session's process events (docs/events.md).
  const events = createProcessEvents({ paths: config.paths, log: deps.log, server: deps.server, manager: managerOf });

  const startProcess = defineTool({
    name: 'start_process',
    title: 'Start a process',
    description:
      'Start a long-running command (dev server, watcher, build) that survives hub and client restarts; output goes to a log. ' +
      'wait_for returns once ready, exited or timed out (no polling). get_free_port picks a port.',
    input: StartInputSchema,
    output: StartOutputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async run(input, call) {
      checkWatch(input.watch);
      const wait = input.wait_for && {
        port: input.wait_for.port,
        pattern:
          input.wait_for.pattern === undefined
            ? undefined
            : compileLinePattern(input.wait_for.pattern, 'wait_for.pattern'),
        timeoutMs: input.wait_for.timeout_ms,
      };
      const ports = [
        ...new Set([...(input.ports ?? []), ...(input.wait_for?.port === undefined ? [] : [input.wait_for.port])]),
      ];
      const outcome = await (
        await managerOf()
      ).start(
        {
          command: input.command,
          args: input.args,
          cwd: input.cwd,
          env: input.env,
          name: input.name,
          tags: input.tags,
          ports,
          tty: input.tty ? { cols: input.cols, rows: input.rows } : undefined,
          restart: { policy: input.restart, max: input.max_restarts },
          startCall: startCallOf(entry, requestIdOf(call.extra)),
        },
        wait,
        call.signal,
        base,
      );
      if (input.watch) await events.watch(outcome.record, input.watch);
      const view = toProcessView(outcome.record);
      const structured = {
        process: view,
        ...(outcome.wait && {
          ready: outcome.wait.ready,
          reason: outcome.wait.reason,
          waited_ms: outcome.wait.waitedMs,
        }),
        log_tail: outcome.tail,
        ...(outcome.alreadyStarted && { already_started: true }),
        next: nextAfterStart(view.id, view.status),
      };
      const text = renderStart(view, outcome.wait, outcome.tail);
      return {
        structured,
        text: outcome.alreadyStarted
          ? `This call had started it already, before hub restarted (no second copy). ${text}`
          : text,
        content: [logLink(view)],
      };
    },
  });

  const listProcesses = defineTool({
    name: 'list_processes',
    title: 'List processes',
    description:
      'Every process started with start_process (by any hub here) and its status: running, exited (with code), killed or failed. Read-only.',
    input: ListInputSchema,
    output: ListOutputSchema,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async input => processListResult(await managerOf(), input),
  });

  const getProcessLogs = defineTool({
    name: 'get_process_logs',
    title: 'Read process logs',
    description:
      "The last lines of a process's output (stdout+stderr); the result text is the log itself. " +
      'Pass next_cursor back as cursor for only newer output. Read-only.',
    input: LogsInputSchema,
    output: LogsOutputSchema,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    async run(input) {
      const { record, slice } = await (
        await managerOf()
      ).logs({
        reference: input.id,
        lines: input.lines,
        cursor: input.cursor,
        grep: input.grep === undefined ? undefined : compileLinePattern(input.grep, 'grep'),
        raw: input.raw,
      });
      const structured = {
        id: record.id,
        status: record.status,
        lines: slice.lines.length,
        next_cursor: slice.nextCursor,
        truncated: slice.truncated,
        cursor_reset: slice.cursorReset,
        dropped_bytes: slice.droppedBytes,
        log_file: record.logFile,
        next: nextAfterLogs(record.id, slice.nextCursor, slice.truncated && input.cursor !== undefined),
      };
      return { structured, text: renderLogs(slice, input.cursor !== undefined), content: [logLink(record)] };
    },
  });

  const killProcess = defineTool({
    name: 'kill_process',
    title: 'Stop a process',
    description:
      'Stop a process and all it spawned (its process group): signal, then SIGKILL after grace_ms; returns once none of it is left.',
    input: KillInputSchema,
    output: KillOutputSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    async run(input) {
      const outcome = await (
        await managerOf()
      ).kill({
        reference: input.id,
        signal: input.signal,
        graceMs: input.grace_ms ?? config.stopGraceMs,
        remove: input.remove,
      });
      const view = toProcessView(outcome.record);
      const structured = {
        process: view,
        already_ended: outcome.alreadyEnded,
        ...(outcome.signalSent !== undefined && { signal_sent: outcome.signalSent }),
        escalated: outcome.escalated,
        stray_members: outcome.strayMembers,
        escaped_members: outcome.escapedMembers,
        removed: outcome.removed,
        waited_ms: outcome.waitedMs,
        ...(outcome.warning !== undefined && { warning: outcome.warning }),
      };
      return { structured, text: renderKill(view, outcome) };
    },
  });

  const getFreePort = defineTool({
    name: 'get_free_port',
    title: 'Get a free port',
    description:
      'A TCP port free now (preferring the given ones), reserved for 30 s for every hub here. Then start_process with it in ports.',
    input: PortInputSchema,
    output: PortOutputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    async run(input) {
      const preferred = input.preferred ?? [];
      const port = await (await managerOf()).freePort(preferred, input.host);
      const next = `Use it now: start_process with ports [${port.port}] or wait_for {"port":${port.port}}.`;
      const structured = {
        port: port.port,
        ...(port.host !== undefined && { host: port.host }),
        reserved_until: port.reservedUntil,
        preferred_granted: port.preferredGranted,
        next,
      };
      return {
        structured,
        text: `Port ${port.port} is free${preferred.length > 0 && !port.preferredGranted ? ' (the preferred port was taken)' : ''}; reserved until ${port.reservedUntil}.\nNext: ${next}`,
      };
    },
  });

  return {
    tools: [
      startProcess,
      listProcesses,
      getProcessLogs,
      killProcess,
      getFreePort,
      ...createInteractiveTools(deps, managerOf),
    ],
    // The same manager serves hub's own resources (tools/hub-resources.ts).
    manager: managerOf,
    decorate: events.decorate,
    // A shared manager is the core's to close.
    close: async () => (events.close(), shared || !used ? undefined : (await managerOf()).close()),
  };
}
