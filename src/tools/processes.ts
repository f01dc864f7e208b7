import { isIP } from 'node:net';
import { z } from 'zod';
import {
  EnvKey,
  KillSignalName,
  PortNumber,
  ProcessName,
  ProcessReference,
  RegexText,
  WAIT_DEFAULT_MS,
  WAIT_MAX_MS,
} from '../process/inputs.js';
import { compileLinePattern } from '../process/line-match.js';
import type { ProcessManager } from '../process/manager.js';
import { renderKill, renderLogs, renderStart } from '../process/render.js';
import { ProcessViewSchema, toProcessView } from '../process/view.js';
import { ProcessStatusSchema } from '../store/schema.js';
import { defineTool, type ToolDeps, type ToolGroup } from './define.js';
import { logLink } from './hub-uris.js';
import { ListProcessesOutput, processListResult } from './process-list.js';

const LOG_TEXT_RESERVE_BYTES = 4 * 1024;

const StartInput = z.strictObject({
  command: z
    .string()
    .min(1)
    .describe(
      'Without args: a shell command line run by $SHELL (e.g. "npm run dev -- --port 5173"). With args: the program, run directly without a shell',
    ),
  args: z
    .array(z.string())
    .max(256)
    .optional()
    .describe('Arguments; when given, command is executed directly (no shell, no quoting issues)'),
  cwd: z.string().min(1).optional().describe("Working directory (must exist); default: hub's working directory"),
  env: z
    .record(EnvKey, z.string())
    .optional()
    .describe("Added to hub's environment; values are never shown back, only the keys"),
  name: ProcessName.optional().describe('A unique name among running processes; usable wherever an id is'),
  tags: z.array(z.string().min(1).max(64)).max(32).optional().describe('Labels to filter list_processes by'),
  ports: z
    .array(PortNumber)
    .max(32)
    .optional()
    .describe('Ports this process will listen on (get_free_port will not hand them out)'),
  wait_for: z
    .strictObject({
      port: PortNumber.optional().describe('Ready when this port accepts TCP on 127.0.0.1 or ::1'),
      pattern: RegexText.optional().describe(
        'Ready when a log line matches this regular expression (RE2 syntax: no lookaround or backreferences)',
      ),
      timeout_ms: z
        .number()
        .int()
        .min(100)
        .max(WAIT_MAX_MS)
        .default(WAIT_DEFAULT_MS)
        .describe(
          `Give up waiting after this long (default ${WAIT_DEFAULT_MS}, max ${WAIT_MAX_MS}); the process keeps running`,
        ),
    })
    .optional()
    .describe('Return only once the process is ready (port or pattern), has exited, or the timeout passed'),
});

const StartOutput = z.object({
  process: ProcessViewSchema,
  ready: z.boolean().optional().describe('With wait_for: whether the readiness condition was met'),
  reason: z.enum(['port', 'pattern', 'exited', 'timeout']).optional(),
  waited_ms: z.number().int().optional(),
  log_tail: z.array(z.string()).describe('The last lines of its log'),
  next: z.string().describe('What to call next, with the ids filled in'),
});

const ListInput = z.strictObject({
  status: ProcessStatusSchema.optional().describe('Only processes with this status'),
  tag: z.string().min(1).max(64).optional().describe('Only processes with this tag'),
  name: ProcessName.optional().describe('Only processes with this name'),
});

const LogsInput = z.strictObject({
  id: ProcessReference,
  lines: z
    .number()
    .int()
    .min(1)
    .max(2_000)
    .default(100)
    .describe('How many lines (default 100, max 2000): the last ones, or with cursor the next ones'),
  cursor: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('next_cursor of an earlier call: return only output written since (follow mode)'),
  grep: RegexText.optional().describe(
    'Only lines matching this regular expression (RE2 syntax: no lookaround or backreferences)',
  ),
  raw: z.boolean().default(false).describe('Keep ANSI escape codes (colours); stripped by default'),
});

const LogsOutput = z.object({
  id: z.string(),
  status: ProcessStatusSchema,
  lines: z.number().int().describe('Lines returned (the result text is the log itself)'),
  next_cursor: z.number().int().describe('Pass as cursor to get only newer output'),
  truncated: z.boolean().describe('More output exists than was returned (older without cursor, newer with it)'),
  cursor_reset: z
    .boolean()
    .describe('The cursor pointed at output since cut by the log cap; reading restarted at the oldest kept line'),
  dropped_bytes: z.number().int().describe('Bytes of the oldest output cut by the log size cap so far'),
  log_file: z.string(),
  next: z.string().describe('What to call next, with the ids filled in'),
});

const KillInput = z.strictObject({
  id: ProcessReference,
  signal: KillSignalName.default('SIGTERM').describe('First signal sent to the whole process group (default SIGTERM)'),
  grace_ms: z
    .number()
    .int()
    .min(0)
    .max(120_000)
    .optional()
    .describe('Wait this long for the group to exit before SIGKILL (default 5000)'),
  remove: z.boolean().default(false).describe('Also delete the record, its log and exit file'),
});

const KillOutput = z.object({
  process: ProcessViewSchema,
  already_ended: z.boolean(),
  signal_sent: KillSignalName.optional(),
  escalated: z.boolean().describe('SIGKILL was needed after grace_ms'),
  stray_members: z.number().int().describe('Leftover members of an already-ended process group that were stopped'),
  escaped_members: z
    .number()
    .int()
    .describe('Process groups that had left its group (setpgid) within its session and were stopped too'),
  removed: z.boolean(),
  waited_ms: z.number().int(),
  warning: z
    .string()
    .optional()
    .describe(
      'Set when the process was stopped but its record could not be written yet (store not writable); hub retries',
    ),
});

// Plain JSON Schema types only (no anyOf): LangChain's converter drops union types, and the
// Inspector CLI sends `preferred=5173` as a string unless the type says number (or as a bare
// number for an array): both, and one port given alone, are taken as the list they mean.
const digitsToNumber = (value: unknown): unknown =>
  typeof value === 'string' && /^\d{1,5}$/.test(value.trim()) ? Number(value) : value;
const PortList = z.preprocess(value => {
  const numeric = digitsToNumber(value);
  return Array.isArray(numeric) ? numeric.map(digitsToNumber) : typeof numeric === 'number' ? [numeric] : numeric;
}, z.array(PortNumber).min(1).max(64));

const PortInput = z.strictObject({
  preferred: PortList.optional().describe(
    'Ports to use when free, in order of preference (one port may be given alone, e.g. 5173)',
  ),
  host: z
    .string()
    .refine(value => isIP(value) !== 0, 'must be an IP address such as 127.0.0.1 or ::1')
    .optional()
    .describe('Check only this IP address (default: all local addresses)'),
});

const PortOutput = z.object({
  port: z.number().int(),
  host: z.string().optional(),
  reserved_until: z.string().describe('Not handed out again by any hub on this HUB_HOME before this time'),
  preferred_granted: z.boolean(),
  next: z.string().describe('What to call next, with the ids filled in'),
});

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
export function createProcessTools(deps: ToolDeps): ToolGroup & { manager(): Promise<ProcessManager> } {
  const { config } = deps;
  // The process code (spawning, logs, ports) loads on the first call: listing needs only schemas.
  let manager: Promise<ProcessManager> | undefined;
  const managerOf = () =>
    (manager ??= import('../process/manager.js').then(module =>
      module.createProcessManager({
        paths: config.paths,
        store: deps.store,
        log: deps.log.child({ module: 'process' }),
        maxRunning: config.maxRunningProcesses,
        logCapBytes: config.logCapBytes,
        logReadBytes: Math.max(16 * 1024, config.resultCapBytes - LOG_TEXT_RESERVE_BYTES),
      }),
    ));

  const startProcess = defineTool({
    name: 'start_process',
    title: 'Start a process',
    description:
      'Start a long-running command (dev server, watcher, build) detached from hub: it keeps running after hub or the client restarts, ' +
      'its stdout+stderr go to a log file. Give wait_for {port} or {pattern} to return only once it is ready (no sleep-and-poll). ' +
      'Side effects: runs the command, writes a record and a log under HUB_HOME. Next: get_process_logs to read output, kill_process to stop it. ' +
      'Use get_free_port first to pick a port.',
    input: StartInput,
    output: StartOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async run(input, call) {
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
        },
        wait,
        call.signal,
      );
      const view = toProcessView(outcome.record);
      const structured = {
        process: view,
        ...(outcome.wait && {
          ready: outcome.wait.ready,
          reason: outcome.wait.reason,
          waited_ms: outcome.wait.waitedMs,
        }),
        log_tail: outcome.tail,
        next: nextAfterStart(view.id, view.status),
      };
      return { structured, text: renderStart(view, outcome.wait, outcome.tail), content: [logLink(view)] };
    },
  });

  const listProcesses = defineTool({
    name: 'list_processes',
    title: 'List processes',
    description:
      'Every process started with start_process (by any hub on this machine) with its current status: running, exited (with exit code), ' +
      'killed or failed. Read-only. Next: get_process_logs {id} or kill_process {id}.',
    input: ListInput,
    output: ListProcessesOutput,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async input => processListResult(await managerOf(), input),
  });

  const getProcessLogs = defineTool({
    name: 'get_process_logs',
    title: 'Read process logs',
    description:
      "The last lines of a process's output (stdout+stderr), read from the end of its log so it is cheap on any size. " +
      'The result text is the log itself. Pass next_cursor back as cursor to get only output written since (follow mode); grep filters lines by regex. Read-only.',
    input: LogsInput,
    output: LogsOutput,
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
      'Stop a process started with start_process together with everything it spawned (its whole process group): sends signal (default SIGTERM), ' +
      'then SIGKILL after grace_ms, and returns once nothing of it is left. Killing a process that already ended returns its record. ' +
      'remove: true also deletes its record and log.',
    input: KillInput,
    output: KillOutput,
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
      'A TCP port that is free right now, preferring the given port(s). The port is reserved for 30 s across every hub sharing HUB_HOME ' +
      '(and ports of running processes are never handed out). Next: start_process with it in ports / wait_for.port.',
    input: PortInput,
    output: PortOutput,
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
    tools: [startProcess, listProcesses, getProcessLogs, killProcess, getFreePort],
    // The same manager serves hub's own resources (tools/hub-resources.ts).
    manager: managerOf,
    close: async () => (manager ? (await manager).close() : undefined),
  };
}
