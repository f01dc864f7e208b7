// Task-augmented calls and tasks/* forwarded to the child, under hub's own task ids.
import {
  CancelTaskResultSchema,
  CreateTaskResultSchema,
  ErrorCode,
  GetTaskPayloadResultSchema,
  GetTaskResultSchema,
  McpError,
  RELATED_TASK_META_KEY,
  type Result,
} from '@modelcontextprotocol/sdk/types.js';
import { RpcError } from '../../wire/rpc-error.js';
import { sdkCaller } from '../calls/forward.js';
import type { Route, RouteTable } from '../listing/routes.js';
import type { Slots } from '../slots/slots.js';
import { runsToolTasks, taskSupportOf } from '../listing/task-listing.js';
import { asClientTask, isTerminal, type TaskRoute, type TaskRoutes } from './task-routes.js';
import type { ChildConnection } from '../child/connection.js';
import type { ProxiedTasks } from './types.js';
import { ChildExtensionTasks } from './child-extension.js';
import { runsExtensionTasks } from '../listing/extension-task-listing.js';

export interface TaskForwardingDeps {
  readonly slots: Slots;
  readonly table: () => RouteTable;
  readonly routes: TaskRoutes;
  /** For creating, getting and cancelling (each answers at once). */
  readonly timeoutMs: number;
  /** For tasks/result, which waits for the task to end. */
  readonly maxWaitMs: number;
  readonly refresh: () => Promise<void>;
}

const LIST_PAGE = 50;
// -32602 and "Task not found" as the SDK's own task handlers answer.
const notFound = (taskId: string, why = '') =>
  new RpcError(
    ErrorCode.InvalidParams,
    `Task not found: ${taskId}${why}. tasks/list shows the tasks hub still knows about.`,
  );

/** The child's related-task _meta names its own id: the client knows the task by hub's. */
export function withHubTaskId<T extends Result>(result: T, route: TaskRoute): T {
  const meta = result._meta;
  if (!meta || !(RELATED_TASK_META_KEY in meta)) return result;
  return { ...result, _meta: { ...meta, [RELATED_TASK_META_KEY]: { taskId: route.id } } };
}

export function createTaskForwarding(deps: TaskForwardingDeps): ProxiedTasks {
  const { slots, table, routes, timeoutMs, maxWaitMs } = deps;
  const childTasks = new ChildExtensionTasks(routes, timeoutMs);

  const routeOf = async (name: string): Promise<Route> => {
    let route = table().byName.get(name);
    if (!route) {
      await deps.refresh();
      route = table().byName.get(name);
    }
    if (!route) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}. Call tools/list to see the tools.`);
    return route;
  };

  // The child still running this task: a stopped or restarted child took its tasks with it.
  // Another session's task is "not found" to this one, as an unknown id: its existence is not told.
  const running = (taskId: string, owner: object | undefined): { route: TaskRoute; conn: ChildConnection } => {
    const route = routes.get(taskId);
    if (!route || (owner !== undefined && route.owner !== undefined && route.owner !== owner)) throw notFound(taskId);
    const conn = slots.get(route.server)?.conn;
    if (conn !== route.conn || route.conn.exit) {
      routes.forget(route);
      throw notFound(
        taskId,
        ` (server "${route.server}" stopped or restarted since the task began, and its tasks ended with it)`,
      );
    }
    return { route, conn };
  };

  // The child answered "not found": it expired there. hub forgets it too.
  const childCall = async <T>(route: TaskRoute, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      // -32602 with "not found", as the SDK's task handlers answer; other -32602s (a task already ended) keep it.
      if (error instanceof McpError && error.code === ErrorCode.InvalidParams && /not found/i.test(error.message))
        routes.forget(route);
      throw error;
    }
  };

  return {
    async create(name, args, task, extra) {
      const route = await routeOf(name);
      const support = taskSupportOf(route.listed.dotted);
      if (support === 'forbidden')
        throw new RpcError(
          ErrorCode.MethodNotFound,
          `${name} cannot run as a task (its execution.taskSupport is not "optional" or "required"); call it without params.task.`,
        );
      const slot = slots.get(route.server);
      if (!slot || slots.closed)
        throw new RpcError(
          ErrorCode.InternalError,
          `Server "${route.server}" is no longer installed or hub is shutting down.`,
        );
      slot.callStarted();
      try {
        const conn = await slot.connection();
        const caller = sdkCaller(extra);
        // The child stays up while its task runs.
        const hold = () => {
          slot.callStarted();
          return () => slot.callEnded();
        };
        // A 2026-07-28 child of the Tasks extension: its own task, as a 2025 one (child-extension.ts).
        if (runsExtensionTasks(conn.capabilities))
          return await childTasks.create(
            route.server,
            conn,
            route.dotted,
            {
              name: route.tool,
              ...(args !== undefined && { arguments: args }),
              ...(extra._meta && { _meta: extra._meta }),
            },
            { signal: extra.signal, owner: caller.session, hold },
          );
        if (!runsToolTasks(conn.capabilities))
          throw new RpcError(
            ErrorCode.MethodNotFound,
            `Server "${route.server}" did not declare task-augmented tools/call; call ${name} without params.task.`,
          );
        const params = {
          name: route.tool,
          ...(args !== undefined && { arguments: args }),
          task,
          ...(extra._meta && { _meta: extra._meta }),
        };
        const created = await conn.request({ method: 'tools/call', params }, CreateTaskResultSchema, {
          timeout: timeoutMs,
          signal: extra.signal,
          // The child's progress for the task's whole life, under the client's token.
          ...(caller.onprogress && { onprogress: caller.onprogress }),
        });
        const hubRoute = routes.add(route.server, conn, route.dotted, created.task, {
          clientOwned: true,
          owner: caller.session,
          hold: () => {
            slot.callStarted();
            return () => slot.callEnded();
          },
        });
        return { ...created, task: asClientTask(hubRoute, created.task) };
      } finally {
        slot.callEnded();
      }
    },

    async get(taskId, extra, owner) {
      const { route, conn } = running(taskId, owner);
      if (childTasks.has(route)) return childCall(route, () => childTasks.get(route));
      const task = await childCall(route, () =>
        conn.request({ method: 'tasks/get', params: { taskId: route.childId } }, GetTaskResultSchema, {
          timeout: timeoutMs,
          signal: extra.signal,
        }),
      );
      routes.seen(route.server, task);
      return asClientTask(route, task);
    },

    async result(taskId, extra, owner) {
      const { route, conn } = running(taskId, owner);
      if (childTasks.has(route)) return childCall(route, () => childTasks.result(route, extra, maxWaitMs));
      // Waits for the task to end (the spec's tasks/result blocks), up to tasks.maxWaitMs; what
      // the child asks of the person meanwhile (input_required) is relayed.
      const waiting = conn.waitingOnTask();
      try {
        const result = await childCall(route, () =>
          conn.request({ method: 'tasks/result', params: { taskId: route.childId } }, GetTaskPayloadResultSchema, {
            timeout: maxWaitMs,
            signal: extra.signal,
          }),
        );
        return withHubTaskId(result, route);
      } catch (error) {
        if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
          throw new RpcError(
            ErrorCode.RequestTimeout,
            `Task ${taskId} is still running after ${maxWaitMs} ms (tasks.maxWaitMs): poll tasks/get and call tasks/result once it has ended.`,
          );
        throw error;
      } finally {
        waiting();
      }
    },

    async list(cursor, owner) {
      // hub's own list (every task its children run for this client, ended ones too), oldest first, paged by index.
      const all = routes.all(owner);
      const start = cursor === undefined ? 0 : Number.parseInt(cursor, 10);
      if (!Number.isSafeInteger(start) || start < 0 || String(start) !== (cursor ?? '0'))
        throw new RpcError(
          ErrorCode.InvalidParams,
          `Invalid cursor: ${cursor}. Use the nextCursor of the last tasks/list.`,
        );
      const page = all.slice(start, start + LIST_PAGE);
      const next = start + LIST_PAGE < all.length ? String(start + LIST_PAGE) : undefined;
      return { tasks: page.map(route => asClientTask(route, route.last)), ...(next && { nextCursor: next }) };
    },

    async cancel(taskId, extra, owner) {
      const { route, conn } = running(taskId, owner);
      if (isTerminal(route.last))
        throw new RpcError(
          ErrorCode.InvalidParams,
          `Cannot cancel task ${taskId}: it is already ${route.last.status}.`,
        );
      if (childTasks.has(route)) return childCall(route, () => childTasks.cancel(route));
      const cancelled = await childCall(route, () =>
        conn.request({ method: 'tasks/cancel', params: { taskId: route.childId } }, CancelTaskResultSchema, {
          timeout: timeoutMs,
          signal: extra.signal,
        }),
      );
      routes.seen(route.server, cancelled);
      return asClientTask(route, cancelled);
    },

    onStatus(listener, owner) {
      return routes.relayTo(listener, owner);
    },
  };
}
