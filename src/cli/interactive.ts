import { HubError } from '../core/errors.js';
import { compileLinePattern } from '../process/logs/line-match.js';
import { DEFAULT_COLS, DEFAULT_ROWS } from '../process/keeper/pty.js';
import { toProcessView } from '../process/view.js';
import { parseCommandArgs } from './args.js';
import type { CliCommand } from './command.js';
import { openManager, reference } from './processes.js';

const never = new AbortController().signal;
// How long --wait-for waits, at start and at a restart.
const WAIT_MS = 60_000;
const POLICIES = ['no', 'on-failure', 'always'] as const;

const wholeNumber = (value: string | undefined, flag: string, fallback: number, min: number, max: number): number => {
  const number = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(number) || number < min || number > max)
    throw new HubError('INVALID_INPUT', `${flag} must be a whole number from ${min} to ${max}.`);
  return number;
};

// hub start [options] -- <command…>: one word after -- is a shell line, several are a program and its arguments.
export const start: CliCommand = async (argv, io) => {
  const { values, positionals } = parseCommandArgs('start', argv, {
    name: { type: 'string' },
    tty: { type: 'boolean' },
    cols: { type: 'string' },
    rows: { type: 'string' },
    restart: { type: 'string' },
    'max-restarts': { type: 'string' },
    cwd: { type: 'string' },
    'wait-for': { type: 'string' },
    json: { type: 'boolean' },
  });
  const [command, ...args] = positionals;
  if (command === undefined)
    throw new HubError('INVALID_INPUT', 'Give the command after --, e.g. hub start --name web -- npm run dev.');
  const policy = values.restart ?? 'no';
  if (!(POLICIES as readonly string[]).includes(policy))
    throw new HubError('INVALID_INPUT', `--restart must be one of ${POLICIES.join(', ')}.`);
  const { manager } = openManager();
  const outcome = await manager.start(
    {
      command,
      args: args.length > 0 ? args : undefined,
      cwd: values.cwd,
      name: values.name,
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
    values['wait-for'] === undefined
      ? undefined
      : { pattern: compileLinePattern(values['wait-for'], '--wait-for'), timeoutMs: WAIT_MS },
    never,
  );
  const view = toProcessView(outcome.record);
  if (values.json) io.out(`${JSON.stringify({ process: view, log_tail: outcome.tail }, null, 2)}\n`);
  else
    io.out(
      `Started ${view.id}${view.name ? ` (${view.name})` : ''}, ${view.status}, pid ${view.pid}.\n` +
        `hub ${view.tty ? 'attach' : 'logs -f'} ${view.name ?? view.id} to watch it, hub send ${view.id} <text> to type into it.\n`,
    );
  return 0;
};

export const restart: CliCommand = async (argv, io) => {
  const { values, positionals } = parseCommandArgs('restart', argv, {
    grace: { type: 'string' },
    json: { type: 'boolean' },
  });
  const id = reference(positionals[0], 'restart <id>');
  const { config, manager } = openManager();
  const graceMs = wholeNumber(values.grace, '--grace', config.stopGraceMs, 0, 120_000);
  // Waits as its start did (--wait-for, or start_process's wait_for).
  const outcome = await manager.restart(id, graceMs, never);
  const view = toProcessView(outcome.record);
  const wait = outcome.wait && {
    ready: outcome.wait.ready,
    reason: outcome.wait.reason,
    waited_ms: outcome.wait.waitedMs,
  };
  if (values.json) io.out(`${JSON.stringify({ process: view, via: outcome.via, ...wait }, null, 2)}\n`);
  else {
    const how = wait ? (wait.ready ? `, ready in ${wait.waited_ms} ms` : `, not ready (${wait.reason})`) : '';
    io.out(`Restarted ${view.id} (restart ${view.restarts ?? 0}), ${view.status}, pid ${view.pid}${how}.\n`);
  }
  return 0;
};

// hub send <id> <text>: the text and Enter (unless --no-enter), then the output it caused.
export const send: CliCommand = async (argv, io) => {
  const { values, positionals } = parseCommandArgs('send', argv, {
    key: { type: 'string', short: 'k', multiple: true },
    'no-enter': { type: 'boolean' },
    'wait-for': { type: 'string' },
    json: { type: 'boolean' },
  });
  const id = reference(positionals[0], 'send <id> [text] [--key K]...');
  const text = positionals.slice(1).join(' ');
  const keys = [...(values['no-enter'] || values.key ? [] : ['Enter']), ...(values.key ?? [])];
  const { manager } = openManager();
  const { record, outcome } = await manager.send(
    id,
    {
      text,
      keys,
      pattern: values['wait-for'] === undefined ? undefined : compileLinePattern(values['wait-for'], '--wait-for'),
      idleMs: 300,
      timeoutMs: 15_000,
      lines: 2_000,
    },
    never,
  );
  if (values.json)
    io.out(
      `${JSON.stringify({ id: record.id, status: record.status, reason: outcome.reason, output: outcome.slice.lines })}\n`,
    );
  else if (outcome.slice.lines.length > 0) io.out(`${outcome.slice.lines.join('\n')}\n`);
  return 0;
};
