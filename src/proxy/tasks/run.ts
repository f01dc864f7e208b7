// A task-required tool run inside an ordinary call for a client without tasks, bounded.
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ErrorCode,
  GetTaskResultSchema,
  McpError,
  type CallToolResult,
  type Progress,
  type Task,
} from '@modelcontextprotocol/sdk/types.js';
import { HubError, errorMessage } from '../../core/errors.js';
import { errorResult } from '../../core/tool-result.js';
import type { Caller } from '../../wire/caller.js';
import { CallCancelledError } from '../../wire/fast-calls.js';
import type { ChildConnection } from '../child/connection.js';
import type { ServerSlot } from '../slots/server-slot.js';
import { withHubTaskId } from './forward.js';
import { runsToolTasks } from '../listing/task-listing.js';
import { isTerminal, type TaskRoute, type TaskRoutes } from './task-routes.js';

export interface TaskRunSettings {
  readonly routes: TaskRoutes;
  /** For creating the task, each tasks/get and tasks/result once it ended. */
  readonly timeoutMs: number;
  /** How long an ordinary call waits for the task (tasks.maxWaitMs). */
  readonly maxWaitMs: number;
}

// The child's pollInterval, kept within reason (a child could ask for 0 or an hour).
const pollEvery = (task: Task) => Math.min(Math.max(task.pollInterval ?? 1000, 200), 5000);

type Outcome =
  | { kind: 'ended'; task: Task }
  /** input_required: the child holds a request (elicitation, sampling) that only tasks/result delivers. */
  | { kind: 'input'; task: Task }
  | { kind: 'timeout' }
  | { kind: 'cancelled' }
  | { kind: 'lost'; why: string };

/**
 * A task-required tool called by a client without tasks: hub makes the task-augmented call to the
 * child and waits for the task (the child's status notifications, and tasks/get at its
 * pollInterval), relays each status message as progress when the caller gave a token, passes a
 * cancellation on as tasks/cancel, and answers with the task's CallToolResult. The wait is
 * bounded by tasks.maxWaitMs: past it the answer says which task to read later.
 */
export async function runAsTask(
  slot: ServerSlot,
  tool: string,
  label: string,
  args: Record<string, unknown> | undefined,
  caller: Caller,
  settings: TaskRunSettings,
): Promise<CallToolResult> {
  const started = performance.now();
  const abort = new AbortController();
  let cancelled: ((reason: string) => void) | undefined;
  caller.cancellable(reason => {
    abort.abort(reason);
    cancelled?.(reason);
  });
  const progress = risingProgress(caller);
  slot.callStarted();
  let waiting: (() => void) | undefined;
  try {
    const conn = slot.conn !== undefined && slot.state === 'ready' ? slot.conn : await slot.connection();
    // The child's requests to the person during the task are relayed, as during any call.
    waiting = conn.waitingOnTask();
    if (!runsToolTasks(conn.capabilities))
      return errorResult(
        new HubError(
          'CHILD_FAILED',
          `${label} requires task-augmented calls, and server "${slot.name}" does not declare them: it cannot be called.`,
        ),
      );
    // The caller's token is not the child's to use: the SDK gives the child a token of its own.
    const { progressToken: _token, ...meta } = caller.meta ?? {};
    const params = {
      name: tool,
      ...(args !== undefined && { arguments: args }),
      task: {},
      ...(Object.keys(meta).length > 0 && { _meta: meta }),
    };
    const created = await conn.request({ method: 'tools/call', params }, CreateTaskResultSchema, {
      timeout: settings.timeoutMs,
      signal: abort.signal,
      ...(progress && { onprogress: progress.child }),
    });
    const route = settings.routes.add(slot.name, conn, label, created.task, {
      clientOwned: false,
      // Past the wait the caller reads it with tasks/get: only its own session may.
      owner: caller.session,
      // Past the wait the task goes on in the child: it stays up until the task ends.
      hold: () => {
        slot.callStarted();
        return () => slot.callEnded();
      },
    });
    const deadline = Date.now() + settings.maxWaitMs;
    const outcome = await waitFor(
      route,
      conn,
      progress?.status,
      settings,
      abort.signal,
      cancel => (cancelled = cancel),
    );
    const result = await answer(outcome, route, conn, { ...settings, deadline, signal: abort.signal });
    slot.metrics.record(performance.now() - started, result.isError === true ? firstLine(result) : undefined);
    return result;
  } catch (error) {
    if (abort.signal.aborted) throw new CallCancelledError(String(abort.signal.reason ?? 'cancelled'));
    slot.metrics.record(performance.now() - started, errorMessage(error).split('\n')[0]);
    // The child's own protocol error (bad arguments, unknown tool) reaches the caller as it is, as for any call.
    if (error instanceof McpError && !TRANSPORT_ERRORS.has(error.code)) throw error;
    return errorResult(
      new HubError(
        'CHILD_UNAVAILABLE',
        `${label} could not be run as a task in server "${slot.name}": ${errorMessage(error)}. Call again.`,
      ),
    );
  } finally {
    waiting?.();
    slot.callEnded();
  }
}

/**
 * The caller's progress from two sources, the child's own progress and the task's status
 * messages, kept rising as the spec requires: a status message counts one up, and a child's
 * value that would go back is dropped.
 */
function risingProgress(
  caller: Caller,
): { child: (progress: Progress) => void; status: (message: string) => void } | undefined {
  const send = caller.onprogress;
  if (!send) return undefined;
  let last = 0;
  return {
    child: progress => {
      if (progress.progress <= last) return;
      last = progress.progress;
      send(progress);
    },
    status: message => {
      last += 1;
      send({ progress: last, message });
    },
  };
}

// A request the SDK Client gave up on (no answer, connection gone): hub's failure, not the child's answer.
const TRANSPORT_ERRORS = new Set<number>([ErrorCode.RequestTimeout, ErrorCode.ConnectionClosed]);

const firstLine = (result: CallToolResult): string => {
  const block = result.content[0];
  return block?.type === 'text' ? block.text.slice(0, 300) : 'the tool returned isError';
};

function waitFor(
  route: TaskRoute,
  conn: ChildConnection,
  status: ((message: string) => void) | undefined,
  settings: TaskRunSettings,
  signal: AbortSignal,
  onCancel: (cancel: () => void) => void,
): Promise<Outcome> {
  const { routes } = settings;
  return new Promise<Outcome>(resolve => {
    let poll: NodeJS.Timeout | undefined;
    const report = (task: Task) => {
      status?.(task.statusMessage ?? task.status);
    };
    const finish = (outcome: Outcome) => {
      clearTimeout(poll);
      clearTimeout(deadline);
      unwatch();
      resolve(outcome);
    };
    // Every status hub learns, from the child's notifications or from polling (task-routes.ts).
    const unwatch = routes.watch(route, task => {
      report(task);
      if (isTerminal(task)) finish({ kind: 'ended', task });
      else if (task.status === 'input_required') finish({ kind: 'input', task });
    });
    const deadline = setTimeout(() => finish({ kind: 'timeout' }), settings.maxWaitMs);
    onCancel(() => finish({ kind: 'cancelled' }));
    if (signal.aborted) return finish({ kind: 'cancelled' });
    report(route.last);
    if (isTerminal(route.last)) return finish({ kind: 'ended', task: route.last });
    if (route.last.status === 'input_required') return finish({ kind: 'input', task: route.last });
    const tick = () => {
      poll = setTimeout(() => {
        conn
          .request({ method: 'tasks/get', params: { taskId: route.childId } }, GetTaskResultSchema, {
            timeout: settings.timeoutMs,
          })
          .then(task => {
            routes.seen(route.server, task);
            if (!isTerminal(task) && task.status !== 'input_required') tick();
          })
          .catch((error: unknown) => finish({ kind: 'lost', why: errorMessage(error) }));
      }, pollEvery(route.last));
    };
    tick();
  });
}

interface Answering extends TaskRunSettings {
  /** When the caller's wait (tasks.maxWaitMs) ends. */
  readonly deadline: number;
  /** The caller's cancellation. */
  readonly signal: AbortSignal;
}

// The caller is owed no answer; the child is told to stop.
async function cancelInChild(route: TaskRoute, conn: ChildConnection, settings: TaskRunSettings): Promise<never> {
  await conn
    .request({ method: 'tasks/cancel', params: { taskId: route.childId } }, GetTaskResultSchema, {
      timeout: settings.timeoutMs,
    })
    .then(task => settings.routes.seen(route.server, task))
    .catch(() => undefined);
  throw new CallCancelledError('cancelled by the client');
}

const stillRunning = (route: TaskRoute, settings: TaskRunSettings) =>
  errorResult(
    new HubError(
      'CHILD_TIMEOUT',
      `${route.label} did not finish within ${settings.maxWaitMs} ms (tasks.maxWaitMs); it goes on in server "${route.server}" as task ${route.id}. ` +
        `A client that supports MCP tasks reads it with tasks/get and tasks/result {"taskId": "${route.id}"}; or raise tasks.maxWaitMs in config.json (it applies after \`hub-mcp stop\`) and call again.`,
    ),
  );

async function answer(
  outcome: Outcome,
  route: TaskRoute,
  conn: ChildConnection,
  settings: Answering,
): Promise<CallToolResult> {
  const where = `server "${route.server}"`;
  switch (outcome.kind) {
    case 'cancelled':
      return cancelInChild(route, conn, settings);
    case 'timeout':
      return stillRunning(route, settings);
    case 'lost':
      settings.routes.forget(route);
      return errorResult(
        new HubError(
          'CHILD_UNAVAILABLE',
          `${route.label} ran as task ${route.id} in ${where}, which stopped answering for it: ${outcome.why}. Call again.`,
        ),
      );
    case 'ended':
    case 'input': {
      if (outcome.task.status === 'cancelled')
        return errorResult(
          new HubError(
            'CANCELLED',
            `${route.label}: task ${route.id} was cancelled in ${where}${detail(outcome.task)}.`,
          ),
        );
      // tasks/result delivers what the child holds for the person (relayed, see waitingOnTask) and
      // answers once the task ended: for input_required it waits out the rest of the caller's time.
      const left = outcome.kind === 'input' ? settings.deadline - Date.now() : settings.timeoutMs;
      try {
        const payload = await conn.request(
          { method: 'tasks/result', params: { taskId: route.childId } },
          CallToolResultSchema,
          { timeout: Math.max(left, 1), signal: settings.signal },
        );
        return withHubTaskId(payload, route);
      } catch (error) {
        if (settings.signal.aborted) return cancelInChild(route, conn, settings);
        if (outcome.kind === 'input' && Date.now() >= settings.deadline) return stillRunning(route, settings);
        return errorResult(
          new HubError(
            'CHILD_ERROR',
            `${route.label}: task ${route.id} ${outcome.task.status} in ${where}${detail(outcome.task)}: ${errorMessage(error)}`,
          ),
        );
      }
    }
  }
}

const detail = (task: Task) => (task.statusMessage ? ` (${task.statusMessage})` : '');
