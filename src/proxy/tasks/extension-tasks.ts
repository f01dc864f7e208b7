// The Tasks extension for clients that declared it: hub's tasks over 2025-11-25 children.
import {
  CreateTaskResultSchema,
  ErrorCode,
  GetTaskResultSchema,
  McpError,
  type CallToolResult,
  type Task,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { META_CAPABILITIES } from '../../wire/era.js';
import type { Caller } from '../../wire/caller.js';
import { RpcError } from '../../wire/rpc-error.js';
import { legacyTask, modernTask, taskResultOf } from '../../wire/tasks-extension.js';
import type { ToolReply } from '../../wire/caller.js';
import type { ChildConnection } from '../child/connection.js';
import type { Route } from '../listing/routes.js';
import { runsToolTasks } from '../listing/task-listing.js';
import type { ServerSlot } from '../slots/server-slot.js';
import { childTaskResult, type TaskOutcome } from './task-result.js';
import { TaskInputs } from './task-inputs.js';
import { isTerminal, type TaskRoute, type TaskRoutes } from './task-routes.js';

type Json = Record<string, unknown>;
type Args = Record<string, unknown> | undefined;

const AnyResult = z.looseObject({});

export interface ExtensionTaskSettings {
  readonly routes: TaskRoutes;
  /** For creating, getting and cancelling (each answers at once). */
  readonly timeoutMs: number;
  /** How long one tasks/result to the child may wait before it is asked again. */
  readonly maxWaitMs: number;
}

/** What hub holds of one task it runs in a 2025-11-25 child for a client of the extension. */
interface Entry {
  readonly route: TaskRoute;
  /** The capabilities the creating request declared: what the client can answer (elicitation, sampling). */
  readonly capabilities: Json;
  readonly inputs: TaskInputs;
  /** The child's answer to tasks/result: the task's result, or the JSON-RPC error it ended with. */
  outcome?: TaskOutcome;
  /** A 2026-07-28 child's own task: the client's tasks/* go to it as they are, under the child's id. */
  readonly relay?: boolean;
}

// Tasks kept at most; the oldest go first (TaskRoutes bounds and expires the routes themselves).
const MAX_ENTRIES = 1000;

const notFound = (taskId: string, why = '') =>
  new RpcError(ErrorCode.InvalidParams, `Failed to retrieve task: Task not found: ${taskId}${why}.`);

/**
 * The Tasks extension (2026-07-28, SEP-2663) for 2026-07-28 clients that declared it, over the
 * 2025-11-25 tasks of hub's children: a call of a task-capable tool (execution.taskSupport
 * "required" or "optional") is made task-augmented to the child and answered `resultType: "task"`
 * under hub's task id. hub then reads the child's tasks/result in the background, so what the
 * child asks the person meanwhile (its elicitation, sampling: sent only on that stream) is held
 * here as the task's `inputRequests` (relay.ts hands it over) until the client's `tasks/update`
 * brings the `inputResponses`. `tasks/get` shows the child's status, the questions, or the final
 * result or error; `tasks/cancel` is the child's tasks/cancel.
 */
export class ExtensionTasks {
  #entries = new Map<string, Entry>();

  constructor(private readonly settings: ExtensionTaskSettings) {}

  /**
   * A tools/call of a task-capable tool, for a client that declared the extension: the CreateTaskResult
   * (typed as a call result: it goes out as the call's answer), or undefined when the child runs no
   * tasks (the call is then made as any other).
   */
  async create(slot: ServerSlot, route: Route, args: Args, caller: Caller): Promise<CallToolResult | undefined> {
    const { routes, timeoutMs } = this.settings;
    const abort = new AbortController();
    caller.cancellable(reason => abort.abort(reason));
    slot.callStarted();
    try {
      const conn = slot.conn !== undefined && slot.state === 'ready' ? slot.conn : await slot.connection();
      if (!runsToolTasks(conn.capabilities)) return undefined;
      // The caller's progress token is not the child's: there is no call to report it on once answered.
      const { progressToken: _token, ...meta } = caller.meta ?? {};
      const params = {
        name: route.tool,
        ...(args !== undefined && { arguments: args }),
        task: {},
        ...(Object.keys(meta).length > 0 && { _meta: meta }),
      };
      const created = await conn.request({ method: 'tools/call', params }, CreateTaskResultSchema, {
        timeout: timeoutMs,
        signal: abort.signal,
      });
      const hubRoute = routes.add(slot.name, conn, route.dotted, created.task, {
        clientOwned: false,
        owner: caller.session,
        hold: () => {
          slot.callStarted();
          return () => slot.callEnded();
        },
      });
      const capabilities = meta[META_CAPABILITIES];
      const entry: Entry = {
        route: hubRoute,
        capabilities: capabilities !== null && typeof capabilities === 'object' ? (capabilities as Json) : {},
        inputs: new TaskInputs(),
      };
      this.#keep(entry);
      void this.#follow(entry, conn);
      return { resultType: 'task', ...modernTask(hubRoute.last, hubRoute.id) } as unknown as CallToolResult;
    } finally {
      slot.callEnded();
    }
  }

  /**
   * A call's answer for a client of the extension: a 2026-07-28 child's own task (resultType
   * "task") is kept under hub's id, which the client sees instead of the child's; anything else passes.
   */
  adopt(slot: ServerSlot, route: Route, reply: ToolReply, caller: Caller): ToolReply {
    const task = taskResultOf(reply);
    const conn = slot.conn;
    if (!task || typeof task.taskId !== 'string' || !conn) return reply;
    const hubRoute = this.settings.routes.add(slot.name, conn, route.dotted, legacyTask(task, task.taskId) as Task, {
      clientOwned: false,
      owner: caller.session,
      hold: () => {
        slot.callStarted();
        return () => slot.callEnded();
      },
    });
    this.#keep({ route: hubRoute, capabilities: {}, inputs: new TaskInputs(), relay: true });
    return { ...task, taskId: hubRoute.id } as unknown as CallToolResult;
  }

  /** tasks/get, tasks/update or tasks/cancel (params.taskId checked by the lane), for owner's tasks only. */
  handle(method: string, params: Json, owner: object | undefined): Promise<Json> {
    const taskId = params.taskId as string;
    const entry = this.#entries.get(taskId);
    const route = entry && this.settings.routes.get(taskId);
    if (!entry || !route || (owner !== undefined && route.owner !== undefined && route.owner !== owner)) {
      if (entry && !route) this.#drop(entry);
      return Promise.reject(notFound(taskId));
    }
    if (entry.relay) return this.#relayed(entry, method, params);
    if (method === 'tasks/update') return Promise.resolve(this.#update(entry, params));
    if (method === 'tasks/cancel') return this.#cancel(entry);
    return this.#get(entry);
  }

  /** Whether the task of this hub id is one of these (its child's questions wait here for tasks/update). */
  holds(taskId: string): boolean {
    const entry = this.#entries.get(taskId);
    return entry !== undefined && entry.outcome === undefined;
  }

  /** A child's request to the person during the task, held until the client answers it in tasks/update. */
  ask(taskId: string, method: string, params: Json, signal: AbortSignal): Promise<Json> {
    const entry = this.#entries.get(taskId);
    if (!entry) return Promise.reject(new RpcError(ErrorCode.InvalidRequest, `hub no longer follows task ${taskId}.`));
    return entry.inputs.ask(method, params, signal);
  }

  /** What the clients of the tasks still running can answer (the relay's capability check). */
  capabilities(): Json | undefined {
    let merged: Json | undefined;
    for (const entry of this.#entries.values())
      if (entry.outcome === undefined) merged = { ...merged, ...entry.capabilities };
    return merged;
  }

  // The child's own task method, under its id; the answer names hub's.
  async #relayed(entry: Entry, method: string, params: Json): Promise<Json> {
    const { route } = entry;
    if (route.conn.exit) {
      this.#drop(entry);
      throw notFound(route.id, ` (server "${route.server}" stopped, and its tasks ended with it)`);
    }
    const { taskId: _hubId, ...rest } = params;
    const answer = await route.conn
      .request({ method, params: { ...rest, taskId: route.childId } }, AnyResult, { timeout: this.settings.timeoutMs })
      .catch((error: unknown) => {
        if (error instanceof McpError && error.code === ErrorCode.InvalidParams) this.#drop(entry);
        throw error;
      });
    if (method !== 'tasks/get') return answer;
    this.settings.routes.seen(route.server, legacyTask(answer, route.childId) as Task);
    return { ...answer, taskId: route.id };
  }

  async #get(entry: Entry): Promise<Json> {
    const { route } = entry;
    const now = this.#now(entry);
    if (now) return now;
    if (route.conn.exit)
      return this.#failed(entry, { code: ErrorCode.InternalError, message: `Server "${route.server}" stopped.` });
    const task = await route.conn
      .request({ method: 'tasks/get', params: { taskId: route.childId } }, GetTaskResultSchema, {
        timeout: this.settings.timeoutMs,
      })
      .catch((error: unknown) => {
        if (error instanceof McpError && error.code === ErrorCode.InvalidParams) this.settings.routes.forget(route);
        throw error;
      });
    this.settings.routes.seen(route.server, task);
    // Ended or asking in the child: its result or its question is on its way here (tasks/result);
    // until it arrives the task is still working as far as the client can act on it.
    const later = this.#now(entry);
    if (later) return later;
    const status = task.status === 'cancelled' ? 'cancelled' : isTerminal(task) ? 'working' : task.status;
    return { ...modernTask(task, route.id), status: status === 'input_required' ? 'working' : status };
  }

  // What hub knows without asking the child: the outcome, or the open questions.
  #now(entry: Entry): Json | undefined {
    const done = this.#finished(entry);
    if (done) return done;
    const open = entry.inputs.open();
    if (open) return { ...modernTask(entry.route.last, entry.route.id), status: 'input_required', inputRequests: open };
    return undefined;
  }

  #update(entry: Entry, params: Json): Json {
    const responses = params.inputResponses;
    if (responses === null || typeof responses !== 'object' || Array.isArray(responses))
      throw new RpcError(
        ErrorCode.InvalidParams,
        'Invalid params: tasks/update needs params.inputResponses, an object of answers keyed as the task’s inputRequests.',
      );
    entry.inputs.answer(responses as Json);
    return {};
  }

  async #cancel(entry: Entry): Promise<Json> {
    const { route } = entry;
    if (entry.outcome !== undefined || isTerminal(route.last)) return {};
    entry.inputs.close('the client cancelled the task');
    const task = await route.conn.request(
      { method: 'tasks/cancel', params: { taskId: route.childId } },
      GetTaskResultSchema,
      { timeout: this.settings.timeoutMs },
    );
    this.settings.routes.seen(route.server, task);
    return {};
  }

  // The child's tasks/result (task-result.ts): the task's outcome; its questions close with it.
  async #follow(entry: Entry, conn: ChildConnection): Promise<void> {
    entry.outcome = await childTaskResult(conn, entry.route, this.settings.maxWaitMs, () =>
      this.#entries.has(entry.route.id),
    );
    entry.inputs.close('the task ended');
  }

  #finished(entry: Entry): Json | undefined {
    const { route, outcome } = entry;
    if (route.last.status === 'cancelled') return { ...modernTask(route.last, route.id), status: 'cancelled' };
    if (outcome === undefined) return undefined;
    if ('result' in outcome)
      return { ...modernTask(route.last, route.id), status: 'completed', result: outcome.result };
    return this.#failed(entry, outcome.error);
  }

  #failed(entry: Entry, error: Json): Json {
    const { route } = entry;
    const message = typeof error.message === 'string' ? error.message : 'the task failed';
    return { ...modernTask(route.last, route.id), status: 'failed', statusMessage: message, error };
  }

  #keep(entry: Entry): void {
    this.#entries.set(entry.route.id, entry);
    if (this.#entries.size <= MAX_ENTRIES) return;
    const oldest = this.#entries.values().next().value;
    if (oldest) this.#drop(oldest);
  }

  #drop(entry: Entry): void {
    entry.inputs.close('hub no longer keeps the task');
    this.#entries.delete(entry.route.id);
  }
}
