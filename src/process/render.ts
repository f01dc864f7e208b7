// Short text renderings of process results for clients that show only text, and the CLI.
import type { KillOutcome } from './lifecycle/kill.js';
import type { LogSlice } from './logs/read.js';
import { describeProcess, type ProcessView } from './view.js';
import type { WaitOutcome } from './lifecycle/wait-for.js';

// Short text renderings of process results, for clients that show only text (and the CLI).

export function renderStart(view: ProcessView, wait: WaitOutcome | undefined, tail: readonly string[]): string {
  const head = `Started ${describeProcess(view)}`;
  const waited = wait
    ? `\n${wait.ready ? 'Ready' : 'Not ready'}: ${wait.reason === 'timeout' ? 'timed out' : wait.reason === 'exited' ? 'the process exited' : `${wait.reason} matched`} after ${wait.waitedMs} ms.`
    : '';
  const log = tail.length > 0 ? `\n--- last log lines ---\n${tail.join('\n')}` : '\n(no output yet)';
  return `${head}${waited}${log}\nNext: get_process_logs {"id":"${view.id}"} or kill_process {"id":"${view.id}"}.`;
}

export function renderList(views: readonly ProcessView[]): string {
  if (views.length === 0) return 'No processes. Start one with start_process.';
  return views.map(describeProcess).join('\n');
}

// The log itself; hub's own notes are lines in the "[hub: ...]" form the log cap also uses.
export function renderLogs(slice: LogSlice, withCursor: boolean): string {
  const notes: string[] = [];
  if (slice.cursorReset)
    notes.push(
      '[hub: the cursor pointed at output that is no longer in the log (cut by the size cap or the log was reset); reading from the oldest kept line]',
    );
  const body = slice.lines.join('\n');
  if (slice.lines.length === 0) notes.push(withCursor ? '[hub: no new output since the cursor]' : '[hub: no output]');
  if (slice.truncated && withCursor)
    notes.push(`[hub: more output follows; call again with cursor ${slice.nextCursor}]`);
  return [
    ...notes.filter(note => note.includes('cursor pointed')),
    ...(body ? [body] : []),
    ...notes.filter(note => !note.includes('cursor pointed')),
  ].join('\n');
}

export function renderKill(
  view: ProcessView,
  outcome: Pick<KillOutcome, 'alreadyEnded' | 'signalSent' | 'escalated' | 'strayMembers' | 'removed' | 'waitedMs'> &
    Partial<Pick<KillOutcome, 'escapedMembers' | 'warning'>>,
): string {
  const escaped =
    (outcome.escapedMembers ?? 0) > 0
      ? `; stopped ${outcome.escapedMembers} process group(s) that had left its group (setpgid, or setsid carrying its HUB_PROCESS_ID)`
      : '';
  const what = outcome.alreadyEnded
    ? `Already ended: ${describeProcess(view)}${outcome.strayMembers > 0 ? `; stopped ${outcome.strayMembers} leftover member(s) of its group` : ''}`
    : `Stopped ${describeProcess(view)} with ${outcome.signalSent ?? 'SIGTERM'}${outcome.escalated ? ', escalated to SIGKILL' : ''} in ${outcome.waitedMs} ms`;
  return `${what}${escaped}${outcome.removed ? '; record and log removed' : ''}.${outcome.warning ? `\nWarning: ${outcome.warning}` : ''}`;
}
