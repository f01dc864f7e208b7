// `hub restart` and `hub send`: a process restarted, or text typed into it, from a terminal.
import { compileLinePattern } from '../process/logs/line-match.js';
import { toProcessView } from '../process/view.js';
import { parseCommandArgs } from './args.js';
import type { CliCommand } from './command.js';
import { openManager, reference } from './processes.js';
import { wholeNumber } from './start-command.js';

const never = new AbortController().signal;

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
