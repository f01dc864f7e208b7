// `hub ps`, `hub logs` and `hub kill` over the same ProcessManager the tools use.
import { setTimeout as sleep } from 'node:timers/promises';
import { errorMessage, HubError } from '../core/errors.js';
import { assertProcessesSupported } from '../core/platform/platform.js';
import { REFERENCE_PATTERN } from '../process/keeper/ids.js';
import { compileLinePattern } from '../process/logs/line-match.js';
import { createProcessManager } from '../process/manager.js';
import { listeningPortsOf } from '../process/listening-ports.js';
import { renderKill } from '../process/render.js';
import { KILL_SIGNALS, type KillSignal } from '../process/lifecycle/stop.js';
import { toProcessView, type ProcessView } from '../process/view.js';
import { ProcessStatusSchema } from '../store/schema.js';
import { openContext } from '../store/open-context.js';
import { parseCommandArgs } from './args.js';
import { errorLine, EXIT_FAILED, EXIT_OK } from './errors.js';
import { renderTable } from './table.js';
import { CLI_LOG, type CliCommand, type CliIo } from './command.js';
import { COMMAND_NAME } from '../core/package-name.js';

const FOLLOW_POLL_MS = 500;

// The same ProcessManager and store the MCP tools use, so `hub ps` shows what any hub started.
export function openManager() {
  assertProcessesSupported();
  const { config, log, store } = openContext({ log: CLI_LOG });
  const manager = createProcessManager({
    paths: config.paths,
    store,
    log,
    maxRunning: config.maxRunningProcesses,
    logCapBytes: config.logCapBytes,
    logReadBytes: config.resultCapBytes,
  });
  return { config, manager };
}

export function reference(value: string | undefined, command: string): string {
  if (value === undefined)
    throw new HubError('INVALID_INPUT', `Usage: hub-mcp ${command} <id or name>. Run hub-mcp ps to see them.`);
  if (!REFERENCE_PATTERN.test(value))
    throw new HubError(
      'INVALID_INPUT',
      `"${value}" is not a process id or name (letters, digits, ".", "_", "-"). Run hub-mcp ps to see them.`,
    );
  return value;
}

const ago = (iso: string): string => {
  const seconds = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  if (seconds < 120) return `${seconds}s ago`;
  if (seconds < 7200) return `${Math.round(seconds / 60)}m ago`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)}h ago`;
  return `${Math.round(seconds / 86_400)}d ago`;
};

function statusText(view: ProcessView): string {
  if (view.status === 'running') return 'running';
  const code = view.exitCode === undefined || view.exitCode === null ? '' : ` ${view.exitCode}`;
  return `${view.status}${code}${view.signal ? ` ${view.signal}` : ''}`;
}

// PORTS: what each running process listens on now (its group's LISTEN sockets), not only the
// ports it was started with.
function table(views: readonly ProcessView[]): string {
  const listening = listeningPortsOf(views.filter(view => view.status === 'running').map(view => view.pid));
  const rows = views.map(view => [
    view.id,
    view.name ?? '-',
    statusText(view),
    String(view.pid),
    (view.status === 'running' ? listening.get(view.pid) : undefined)?.join(',') || '-',
    ago(view.startedAt),
    `${view.sandbox ? `[sandbox${view.sandbox.network === 'none' ? ', no network' : ''}] ` : ''}${[view.command, ...(view.args ?? [])].join(' ')}`,
  ]);
  return `${renderTable([['ID', 'NAME', 'STATUS', 'PID', 'PORTS', 'STARTED', 'COMMAND'], ...rows])}\n`;
}

export const ps: CliCommand = async (argv, io) => {
  const { values } = parseCommandArgs(
    'ps',
    argv,
    {
      json: { type: 'boolean' },
      status: { type: 'string' },
      tag: { type: 'string' },
    },
    { positionals: false },
  );
  const status = values.status === undefined ? undefined : ProcessStatusSchema.safeParse(values.status);
  if (status && !status.success)
    throw new HubError('INVALID_INPUT', `--status must be one of ${ProcessStatusSchema.options.join(', ')}.`);
  const { manager } = openManager();
  const views = (await manager.list({ status: status?.data, tag: values.tag })).map(toProcessView);
  if (values.json) io.out(`${JSON.stringify(views, null, 2)}\n`);
  else
    io.out(
      views.length === 0 ? `No processes. Start one: ${COMMAND_NAME} start --name web -- npm run dev\n` : table(views),
    );
  return 0;
};

const writeLines = (io: CliIo, lines: readonly string[]) => {
  if (lines.length > 0) io.out(`${lines.join('\n')}\n`);
};

export const logs: CliCommand = async (argv, io) => {
  const { values, positionals } = parseCommandArgs('logs', argv, {
    lines: { type: 'string', short: 'n' },
    follow: { type: 'boolean', short: 'f' },
    grep: { type: 'string' },
    raw: { type: 'boolean' },
    json: { type: 'boolean' },
  });
  const id = reference(positionals[0], 'logs <id> [-n N] [-f]');
  const lines = values.lines === undefined ? 100 : Number(values.lines);
  if (!Number.isInteger(lines) || lines < 1 || lines > 2000)
    throw new HubError('INVALID_INPUT', '-n must be a whole number from 1 to 2000.');
  const grep = values.grep === undefined ? undefined : compileLinePattern(values.grep, '--grep');
  const { manager } = openManager();
  let { record, slice } = await manager.logs({ reference: id, lines, grep, raw: values.raw });
  if (values.json)
    io.out(
      `${JSON.stringify({ id: record.id, status: record.status, lines: slice.lines, next_cursor: slice.nextCursor, truncated: slice.truncated })}\n`,
    );
  else writeLines(io, slice.lines);
  // Follow: poll from the cursor until the process ends (or Ctrl-C).
  while (values.follow) {
    const wasRunning = record.status === 'running';
    if (wasRunning) await sleep(FOLLOW_POLL_MS);
    ({ record, slice } = await manager.logs({
      reference: record.id,
      lines: 2000,
      cursor: slice.nextCursor,
      grep,
      raw: values.raw,
    }));
    if (values.json) {
      if (slice.lines.length > 0)
        io.out(
          `${JSON.stringify({ id: record.id, status: record.status, lines: slice.lines, next_cursor: slice.nextCursor })}\n`,
        );
    } else writeLines(io, slice.lines);
    if (!wasRunning && !slice.truncated) break;
  }
  return 0;
};

export const kill: CliCommand = async (argv, io) => {
  const { values, positionals } = parseCommandArgs('kill', argv, {
    signal: { type: 'string', short: 's' },
    grace: { type: 'string' },
    remove: { type: 'boolean' },
    json: { type: 'boolean' },
  });
  if (positionals.length === 0) reference(undefined, 'kill <id>... [--signal SIG] [--remove]');
  const ids = positionals.map(id => reference(id, 'kill <id>... [--signal SIG] [--remove]'));
  const signal = (
    values.signal === undefined ? 'SIGTERM' : values.signal.toUpperCase().replace(/^(?!SIG)/, 'SIG')
  ) as KillSignal;
  if (!KILL_SIGNALS.includes(signal))
    throw new HubError('INVALID_INPUT', `--signal must be one of ${KILL_SIGNALS.join(', ')}.`);
  const { config, manager } = openManager();
  const graceMs = values.grace === undefined ? config.stopGraceMs : Number(values.grace);
  if (!Number.isInteger(graceMs) || graceMs < 0)
    throw new HubError('INVALID_INPUT', '--grace must be a whole number of milliseconds.');
  // Each one in turn: one that cannot be stopped (unknown, already gone) does not spare the others.
  const reports: unknown[] = [];
  let failed = false;
  for (const id of ids) {
    try {
      const outcome = await manager.kill({ reference: id, signal, graceMs, remove: values.remove ?? false });
      const view = toProcessView(outcome.record);
      reports.push({
        process: view,
        already_ended: outcome.alreadyEnded,
        signal_sent: outcome.signalSent,
        escalated: outcome.escalated,
        removed: outcome.removed,
        waited_ms: outcome.waitedMs,
      });
      if (!values.json) io.out(`${renderKill(view, outcome)}\n`);
    } catch (error) {
      failed = true;
      reports.push({ reference: id, error: errorMessage(error) });
      io.err(errorLine('kill', error));
    }
  }
  // One id keeps the single object scripts already read; several give an array, in order.
  if (values.json) io.out(`${JSON.stringify(ids.length === 1 ? reports[0] : reports, null, 2)}\n`);
  return failed ? EXIT_FAILED : EXIT_OK;
};
