// Why a child did not start or keeps failing, in words a person can act on, from its log.
import { basename } from 'node:path';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { HubError, errorMessage, isHubError } from '../../core/errors.js';
import type { ServerRecord } from '../../store/schema.js';
import { latestRunLines } from '../child/server-log.js';
import { cut } from '../../core/clip.js';

// Why a child did not start or keeps failing, in words a person can act on: which package, and the
// log lines that explain it (the first error line, not only the tail of a 46-line Node stack).

const READ_BYTES = 64 * 1024;
const LINE_CHARS = 300;
const TAIL_LINES = 6;
const HEAD_LINES = 4;
// A line that says what went wrong (stack frames, "at …", are what follows it).
const ERROR_LINE =
  /\b(error|fatal|exception|cannot|could not|can't|failed|not found|denied|refused|ERR!)\b|^\w*Error\b/i;
const STACK_FRAME = /^\s*at\s/;

/** `Server "name" (package@version)`, or the script it runs: never just the Node binary. */
export function serverLabel(record: ServerRecord): string {
  if (record.package !== undefined) return `Server "${record.name}" (${record.package}@${record.version ?? '?'})`;
  if (record.remote) return `Server "${record.name}" (${record.remote.url})`;
  const script = record.args.find(arg => !arg.startsWith('-'));
  const command = basename(record.command);
  const what = script === undefined ? command : `${command} ${script}`;
  return `Server "${record.name}" (${what})`;
}

/** The lines of the latest run, from the last (at most) 64 KB of the log. */

/** The first error line (with what continues it) and the last lines, from one run's log lines. */
export function explainingLines(lines: readonly string[]): string {
  const first = lines.findIndex(line => !STACK_FRAME.test(line) && ERROR_LINE.test(line));
  const tailFrom = Math.max(0, lines.length - TAIL_LINES);
  if (first < 0 || first >= tailFrom)
    return lines
      .slice(first < 0 ? -12 : Math.min(first, tailFrom))
      .map(line => cut(line, LINE_CHARS))
      .join('\n');
  let headEnd = first + 1;
  while (headEnd < lines.length && headEnd - first < HEAD_LINES && !STACK_FRAME.test(lines[headEnd] ?? ''))
    headEnd += 1;
  const head = lines.slice(first, headEnd);
  const tail = lines.slice(Math.max(headEnd, tailFrom));
  const gap = tailFrom > headEnd ? [`… (${tailFrom - headEnd} more lines)`] : [];
  return [...head, ...gap, ...tail].map(line => cut(line, LINE_CHARS)).join('\n');
}

/** " Its log (file) says:\n<lines>", or where the log is when it is empty. */
export async function logExplanation(file: string): Promise<string> {
  const lines = await latestRunLines(file, READ_BYTES);
  return lines.length > 0 ? ` Its log (${file}) says:\n${explainingLines(lines)}` : ` Its log is ${file}.`;
}

/** The error a failed start is reported with (to the caller, registry.install and registry.list). */
export async function describeStartFailure(
  record: ServerRecord,
  logFile: string,
  error: unknown,
  startTimeoutMs: number,
): Promise<HubError> {
  const label = serverLabel(record);
  const log = await logExplanation(logFile);
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return new HubError(
      'CHILD_TIMEOUT',
      `${label} did not start (MCP handshake and tools/list) within ${startTimeoutMs} ms; check that it is an MCP server that speaks over stdio.${log}`,
      { cause: error },
    );
  }
  const why = isHubError(error) ? error.message : errorMessage(error);
  return new HubError(
    'CHILD_FAILED',
    `${label} could not start (${why}); fix the cause shown in its log, then call it again or reinstall it with registry.install.${log}`,
    { cause: error },
  );
}

/** Why a crash-looping server is `failed` (the log's explaining lines are added once read). */
export function crashLoopSummary(
  record: ServerRecord,
  policy: { readonly maxUnstableExits: number; readonly stableMs: number },
  last: string,
): string {
  return (
    `${serverLabel(record)} failed: its last ${policy.maxUnstableExits} runs each ended within ${policy.stableMs / 1000} s of starting ` +
    `(last: ${last.split('\n')[0]}). Fix the cause and reinstall it with registry.install, or restart hub.`
  );
}

/** A start that stop() overtook. */
export const stoppedError = (name: string) =>
  new HubError(
    'CHILD_UNAVAILABLE',
    `Server "${name}" was stopped while it was starting; call the tool again to start it.`,
  );

/** The child finished the handshake, then died before tools/list answered. */
export const exitedBeforeListing = (exit: { code: number | null; signal: NodeJS.Signals | null }, cause: unknown) =>
  new HubError('CHILD_FAILED', `the process exited (${exit.signal ?? `code ${exit.code}`}) before listing its tools`, {
    cause,
  });
