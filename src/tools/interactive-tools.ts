// send_input, get_process_screen and restart_process: thin handlers over the ProcessManager.
import { compileLinePattern } from '../process/logs/line-match.js';
import type { ProcessManager } from '../process/manager.js';
import { defineTool, type ToolDeps } from './define.js';
import {
  RestartInputSchema,
  RestartOutputSchema,
  ScreenInputSchema,
  ScreenOutputSchema,
  SendInputSchema,
  SendOutputSchema,
} from './interactive-schemas.js';

// send_input, get_process_screen and restart_process: thin handlers over the ProcessManager.
export function createInteractiveTools(deps: ToolDeps, managerOf: () => Promise<ProcessManager>) {
  const sendInput = defineTool({
    name: 'send_input',
    title: 'Send input to a process',
    description:
      "Type text and keys into a process's stdin or terminal, then return its new output (once wait_for is met or output is idle_ms quiet).",
    input: SendInputSchema,
    output: SendOutputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    async run(input, call) {
      const { record, outcome } = await (
        await managerOf()
      ).send(
        input.id,
        {
          text: input.text,
          keys: input.keys,
          resize: input.resize,
          pattern:
            input.wait_for?.pattern === undefined
              ? undefined
              : compileLinePattern(input.wait_for.pattern, 'wait_for.pattern'),
          port: input.wait_for?.port,
          idleMs: input.idle_ms,
          timeoutMs: input.wait_for?.timeout_ms ?? input.timeout_ms,
          lines: input.lines,
        },
        call.signal,
      );
      const output = outcome.slice.lines.join('\n');
      const next = record.tty
        ? `get_process_screen {"id":"${record.id}"} shows its screen; send_input again to answer.`
        : `send_input again to answer; get_process_logs {"id":"${record.id}","cursor":${outcome.slice.nextCursor}} for later output.`;
      const structured = {
        id: record.id,
        status: record.status,
        bytes_sent: outcome.bytesSent,
        reason: outcome.reason,
        waited_ms: outcome.waitedMs,
        output,
        truncated: outcome.slice.truncated,
        next_cursor: outcome.slice.nextCursor,
        next,
      };
      return { structured, text: `${output}\n[${outcome.reason} after ${outcome.waitedMs} ms] Next: ${next}` };
    },
  });

  const getScreen = defineTool({
    name: 'get_process_screen',
    title: 'Read a terminal screen',
    description:
      'The current screen of a tty process as text rows, with cursor and title: for full-screen programs (vi, top). Read-only.',
    input: ScreenInputSchema,
    output: ScreenOutputSchema,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run(input) {
      const { record, screen } = await (await managerOf()).screen(input.id);
      const size = record.tty ?? { cols: 0, rows: 0 };
      const next = `send_input {"id":"${record.id}","keys":[…]} to act on it.`;
      const structured = { id: record.id, status: record.status, ...size, ...screen, next };
      return { structured, text: `${screen.lines.join('\n')}\n[cursor ${screen.cursor.row},${screen.cursor.col}]` };
    },
  });

  const restart = defineTool({
    name: 'restart_process',
    title: 'Restart a process',
    description:
      'Run a process again (same command, cwd, env, tty, sandbox, wait_for) under its id and log, stopping it first if running.',
    input: RestartInputSchema,
    output: RestartOutputSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    async run(input, call) {
      const manager = await managerOf();
      const outcome = await manager.restart(input.id, input.grace_ms ?? deps.config.stopGraceMs, call.signal);
      const { id, status, pid, restarts = 0 } = outcome.record;
      const { wait } = outcome;
      const next =
        wait && !wait.ready
          ? `Not ready (${wait.reason}): get_process_logs {"id":"${id}"} shows why, after its restart marker.`
          : `get_process_logs {"id":"${id}"} shows the new run after its restart marker.`;
      const waited = wait && { ready: wait.ready, reason: wait.reason, waited_ms: wait.waitedMs };
      const how = wait
        ? wait.ready
          ? `, ready by ${wait.reason} in ${wait.waitedMs} ms`
          : `, not ready: ${wait.reason}`
        : '';
      return {
        structured: { id, status, pid, restarts, via: outcome.via, ...waited, next },
        text: `Restarted ${id} (restart ${restarts}, ${outcome.via}${how}).\nNext: ${next}`,
      };
    },
  });

  return [sendInput, getScreen, restart];
}
