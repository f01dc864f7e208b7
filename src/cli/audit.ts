// `hub audit`: what was done through hub, filtered, as a table or the JSON lines themselves.
import { HubError } from '../core/errors.js';
import { auditLog } from '../store/audit/log.js';
import { followAudit } from '../store/audit/follow.js';
import { parseAuditTime, readAudit, type AuditEntry, type AuditFilter } from '../store/audit/read.js';
import type { AuditKind } from '../store/audit/line.js';
import { openContext } from '../store/open-context.js';
import { parseCommandArgs } from './args.js';
import { CLI_LOG, type CliCommand, type CliIo } from './command.js';
import { renderTable } from './table.js';

const KINDS: readonly AuditKind[] = ['call', 'process', 'install', 'uninstall', 'upgrade', 'configure', 'decision'];
// Without --json or a time span, a terminal gets the newest this many.
const TABLE_LIMIT = 200;

const str = (value: unknown): string => (value === undefined || value === null ? '' : String(value));

// What the line is about, in one cell.
function what(entry: AuditEntry): string {
  switch (entry.kind) {
    case 'call':
      return `${str(entry.server)}.${str(entry.tool)}`;
    case 'process':
      return `${str(entry.action)} ${str(entry.process)}${entry.command ? ` (${str(entry.command)})` : ''}`;
    case 'decision':
      return `${str(entry.answer)}: ${str(entry.question).split('\n')[0]}`;
    default:
      return `${str(entry.server)}${entry.version ? `@${str(entry.version)}` : ''}`;
  }
}

function table(entries: readonly AuditEntry[]): string {
  const rows = entries.map(entry => [
    new Date(entry.t).toLocaleString(),
    entry.kind,
    str(entry.by),
    entry.session === undefined ? '-' : `${str(entry.session)}${entry.client ? ` ${str(entry.client)}` : ''}`,
    what(entry).slice(0, 100),
    `${str(entry.outcome) || '-'}${entry.code ? ` ${str(entry.code)}` : ''}`,
    entry.ms === undefined ? '' : `${str(entry.ms)} ms`,
  ]);
  return `${renderTable([['TIME', 'KIND', 'BY', 'SESSION', 'WHAT', 'OUTCOME', 'TOOK'], ...rows])}\n`;
}

/** hub audit: what was done through hub, filtered; --json prints the JSON lines themselves (the export). */
export const audit: CliCommand = async (argv, io: CliIo) => {
  const { values } = parseCommandArgs(
    'audit',
    argv,
    {
      since: { type: 'string' },
      until: { type: 'string' },
      server: { type: 'string' },
      tool: { type: 'string' },
      session: { type: 'string' },
      process: { type: 'string' },
      kind: { type: 'string' },
      decisions: { type: 'boolean' },
      json: { type: 'boolean' },
      follow: { type: 'boolean', short: 'f' },
    },
    { positionals: false },
  );
  if (values.kind !== undefined && !KINDS.includes(values.kind as AuditKind))
    throw new HubError('INVALID_INPUT', `--kind must be one of ${KINDS.join(', ')}.`);
  const filter: AuditFilter = {
    since: values.since === undefined ? undefined : parseAuditTime('--since', values.since),
    until: values.until === undefined ? undefined : parseAuditTime('--until', values.until),
    server: values.server,
    tool: values.tool,
    session: values.session,
    process: values.process,
    decisions: values.decisions,
    kind: values.kind as AuditKind | undefined,
  };
  const { config } = openContext({ log: CLI_LOG });
  // This command's own lines (none yet, but a future one) never wait for the exit.
  auditLog(config.paths).flush();
  const limit = values.json || filter.since !== undefined ? undefined : TABLE_LIMIT;
  const { entries, unreadable } = await readAudit(config.paths.auditDir, filter, limit);
  if (values.json) for (const entry of entries) io.out(`${JSON.stringify(entry)}\n`);
  else if (entries.length === 0 && !values.follow)
    io.out(`Nothing in the audit log${Object.values(filter).some(v => v !== undefined) ? ' matches' : ' yet'}.\n`);
  else if (entries.length > 0) io.out(table(entries));
  if (unreadable > 0) io.err(`hub: ${unreadable} line(s) of the audit log could not be read and were skipped.\n`);
  if (!values.follow) return 0;
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  await followAudit(
    config.paths.auditDir,
    filter,
    entry => io.out(values.json ? `${JSON.stringify(entry)}\n` : table([entry]).split('\n').slice(1).join('\n')),
    stop.signal,
  );
  return 0;
};
