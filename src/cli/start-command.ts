// `hub start -- <command>`: a detached process started from a terminal, waited for.
import { HubError } from '../core/errors.js';
import { COMMAND_NAME } from '../core/package-name.js';
import { compileLinePattern } from '../process/logs/line-match.js';
import { DEFAULT_COLS, DEFAULT_ROWS } from '../process/keeper/pty.js';
import { toProcessView, type ProcessView } from '../process/view.js';
import type { WaitOutcome, WaitSpec } from '../process/lifecycle/wait-for.js';
import { parseCommandArgs } from './args.js';
import type { CliCommand } from './command.js';
import { EXIT_FAILED, EXIT_OK } from './errors.js';
import { openManager } from './processes.js';

const never = new AbortController().signal;
const POLICIES = ['no', 'on-failure', 'always'] as const;
// --timeout's default, in seconds: how long --wait-for and --port wait for the process to be ready.
const WAIT_SECONDS = 60;
const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const wholeNumber = (
  value: string | undefined,
  flag: string,
  fallback: number,
  min: number,
  max: number,
): number => {
  const number = value === undefined ? fallback : Number(value);
  if (!/^\d+$/.test(value ?? String(fallback)) || !Number.isInteger(number) || number < min || number > max)
    throw new HubError('INVALID_INPUT', `${flag} must be a whole number from ${min} to ${max} (got "${value}").`);
  return number;
};

function envOf(pairs: readonly string[] | undefined): Record<string, string> | undefined {
  if (!pairs) return undefined;
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const key = at === -1 ? pair : pair.slice(0, at);
    if (at === -1 || !ENV_KEY.test(key))
      throw new HubError('INVALID_INPUT', `--env takes NAME=value, e.g. --env PORT=3000 (got "${pair}").`);
    env[key] = pair.slice(at + 1);
  }
  return env;
}

function waitOf(values: { 'wait-for'?: string; port?: string[]; timeout?: string }): WaitSpec | undefined {
  const ports = (values.port ?? []).map(port => wholeNumber(port, '--port', 0, 1, 65_535));
  const timeoutMs = wholeNumber(values.timeout, '--timeout', WAIT_SECONDS, 1, 3_600) * 1000;
  if (values['wait-for'] === undefined && ports.length === 0) {
    if (values.timeout !== undefined)
      throw new HubError('INVALID_INPUT', '--timeout bounds the wait of --wait-for or --port: give one of them.');
    return undefined;
  }
  return {
    port: ports[0],
    pattern: values['wait-for'] === undefined ? undefined : compileLinePattern(values['wait-for'], '--wait-for'),
    timeoutMs,
  };
}

const what = (view: ProcessView) => `${view.id}${view.name ? ` (${view.name})` : ''}`;
const exitText = (view: ProcessView) =>
  view.signal
    ? `was ended by ${view.signal}`
    : view.exitCode === undefined || view.exitCode === null
      ? `${view.status} (exit code unknown)`
      : `exited with code ${view.exitCode}`;

// Why a start did not give a running process, or undefined when it did (or was meant to end: a
// command that exits 0 with nothing to wait for).
function failure(view: ProcessView, wait: WaitOutcome | undefined, waitSpec: WaitSpec | undefined): string | undefined {
  if (wait?.reason === 'timeout') {
    const waited = [
      waitSpec?.pattern && `no line matched /${waitSpec.pattern.source}/`,
      waitSpec?.port !== undefined && `port ${waitSpec.port} did not accept connections`,
    ].filter(Boolean);
    return `${what(view)} was not ready after ${Math.round(wait.waitedMs / 1000)} s (${waited.join(', and ')}); it is still running: ${COMMAND_NAME} logs ${view.id} shows its output, ${COMMAND_NAME} kill ${view.id} stops it.`;
  }
  if (wait && !wait.ready) return `${what(view)} ${exitText(view)} before it was ready.`;
  if (!wait && view.status !== 'running' && (view.exitCode !== 0 || view.signal))
    return `${what(view)} ${exitText(view)}.`;
  return undefined;
}

// hub-mcp start [options] -- <command…>: one word after -- is a shell line, several are a program and its arguments.
export const start: CliCommand = async (argv, io) => {
  const { values, positionals } = parseCommandArgs('start', argv, {
    name: { type: 'string' },
    tty: { type: 'boolean' },
    cols: { type: 'string' },
    rows: { type: 'string' },
    restart: { type: 'string' },
    'max-restarts': { type: 'string' },
    cwd: { type: 'string' },
    env: { type: 'string', multiple: true },
    tag: { type: 'string', multiple: true },
    port: { type: 'string', multiple: true },
    'wait-for': { type: 'string' },
    timeout: { type: 'string' },
    json: { type: 'boolean' },
  });
  const [command, ...args] = positionals;
  if (command === undefined)
    throw new HubError(
      'INVALID_INPUT',
      `Give the command after --, e.g. ${COMMAND_NAME} start --name web -- npm run dev.`,
    );
  const policy = values.restart ?? 'no';
  if (!(POLICIES as readonly string[]).includes(policy))
    throw new HubError('INVALID_INPUT', `--restart must be one of ${POLICIES.join(', ')}.`);
  const wait = waitOf(values);
  const ports = (values.port ?? []).map(port => Number(port));
  const { manager } = openManager();
  const outcome = await manager.start(
    {
      command,
      args: args.length > 0 ? args : undefined,
      cwd: values.cwd,
      name: values.name,
      env: envOf(values.env),
      tags: values.tag,
      ports: ports.length > 0 ? [...new Set(ports)] : undefined,
      tty: values.tty
        ? {
            cols: wholeNumber(values.cols, '--cols', DEFAULT_COLS, 10, 500),
            rows: wholeNumber(values.rows, '--rows', DEFAULT_ROWS, 3, 200),
          }
        : undefined,
      restart: {
        policy: policy as (typeof POLICIES)[number],
        max: wholeNumber(values['max-restarts'], '--max-restarts', 5, 0, 1_000),
      },
    },
    wait,
    never,
  );
  const view = toProcessView(outcome.record);
  const failed = failure(view, outcome.wait, wait);
  if (values.json) {
    const ready = outcome.wait && {
      ready: outcome.wait.ready,
      reason: outcome.wait.reason,
      waited_ms: outcome.wait.waitedMs,
    };
    io.out(`${JSON.stringify({ process: view, ...ready, log_tail: outcome.tail }, null, 2)}\n`);
    return failed ? EXIT_FAILED : EXIT_OK;
  }
  if (failed) {
    const tail = outcome.tail.length > 0 ? `\n--- last log lines ---\n${outcome.tail.join('\n')}` : '';
    io.err(`${COMMAND_NAME} start: ${failed}${tail}\n`);
    return EXIT_FAILED;
  }
  const ready = outcome.wait ? `, ready in ${outcome.wait.waitedMs} ms (${outcome.wait.reason})` : '';
  io.out(
    `Started ${what(view)}, ${view.status}${ready}, pid ${view.pid}.\n` +
      (view.status === 'running'
        ? `${COMMAND_NAME} ${view.tty ? 'attach' : 'logs -f'} ${view.name ?? view.id} to watch it, ${COMMAND_NAME} send ${view.id} <text> to type into it.\n`
        : `${COMMAND_NAME} logs ${view.id} shows its output.\n`),
  );
  return EXIT_OK;
};
