// The process tools (start, list, logs, kill, free port): thin handlers over the ProcessManager.
import { compileLinePattern } from '../process/logs/line-match.js';
import { assertProcessesSupported } from '../core/platform/platform.js';
import type { ProcessManager } from '../process/manager.js';
import { renderKill, renderLogs } from '../process/render.js';
import { toProcessView } from '../process/view.js';
import { defineTool, type HubTool, type ToolDeps, type ToolGroup } from './define.js';
import { logLink } from './hub-uris.js';
import { processListResult } from './process-list.js';
import { createInteractiveTools } from './interactive-tools.js';
import { createProcessEvents, type ProcessEvents } from './process-events.js';
import { startProcessTool, type ProcessBase } from './process-start.js';
import {
  ListInputSchema,
  ListOutputSchema,
  LogsInputSchema,
  LogsOutputSchema,
  KillInputSchema,
  KillOutputSchema,
  PortInputSchema,
  PortOutputSchema,
} from './process-schemas.js';

export type { ProcessBase } from './process-start.js';

const LOG_TEXT_RESERVE_BYTES = 4 * 1024;

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

type ManagerOf = () => Promise<ProcessManager>;

function listProcessesTool(managerOf: ManagerOf): HubTool {
  return defineTool({
    name: 'list_processes',
    title: 'List processes',
    description:
      'Every start_process process (by any hub here) and its status: running, exited (code), killed or failed. Read-only.',
    input: ListInputSchema,
    output: ListOutputSchema,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async input => processListResult(await managerOf(), input),
  });
}

function getProcessLogsTool(managerOf: ManagerOf): HubTool {
  return defineTool({
    name: 'get_process_logs',
    title: 'Read process logs',
    description:
      "The last lines of a process's output (stdout+stderr), as the result text. " +
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
}

function killProcessTool(managerOf: ManagerOf, stopGraceMs: number): HubTool {
  return defineTool({
    name: 'kill_process',
    title: 'Stop a process',
    description:
      'Stop a process and all it spawned: signal, then SIGKILL after grace_ms; returns once none of it is left.',
    input: KillInputSchema,
    output: KillOutputSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    async run(input) {
      const outcome = await (
        await managerOf()
      ).kill({
        reference: input.id,
        signal: input.signal,
        graceMs: input.grace_ms ?? stopGraceMs,
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
}

function getFreePortTool(managerOf: ManagerOf): HubTool {
  return defineTool({
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
}

export function createProcessTools(
  deps: ToolDeps,
  /** A hub core's manager (shared by its sessions) and this session's cwd and env. */
  shared?: { manager: () => Promise<ProcessManager>; base?: ProcessBase },
): ToolGroup & { manager(): Promise<ProcessManager>; decorate: ProcessEvents['decorate'] } {
  const source = shared?.manager ?? lazyProcessManager(deps);
  let used = false;
  const managerOf = () => ((used = true), source());
  const base = shared?.base;
  // start_process's watch: this session's process events (docs/events.md).
  const events = createProcessEvents({
    paths: deps.config.paths,
    log: deps.log,
    server: deps.server,
    manager: managerOf,
  });

  return {
    tools: [
      startProcessTool(managerOf, base, events),
      listProcessesTool(managerOf),
      getProcessLogsTool(managerOf),
      killProcessTool(managerOf, deps.config.stopGraceMs),
      getFreePortTool(managerOf),
      ...createInteractiveTools(deps, managerOf),
    ],
    // The same manager serves hub's own resources (tools/hub-resources.ts).
    manager: managerOf,
    decorate: events.decorate,
    // A shared manager is the core's to close.
    close: async () => (events.close(), shared || !used ? undefined : (await managerOf()).close()),
  };
}
