// The Tasks extension (SEP-2663) as bytes: its identifier, a request's declaration, the task shape.
import { META_CAPABILITIES, type RpcErrorBody } from './era.js';
import { RawToolResult } from './raw-result.js';

/**
 * The Tasks extension of the 2026-07-28 revision (SEP-2663) as bytes: its identifier, whether a
 * request's envelope declares it, and the 2026 task shape. A server may answer a tools/call with
 * `resultType: "task"` only to a request that declared it; the client then polls `tasks/get`,
 * answers input with `tasks/update` and stops it with `tasks/cancel` (no `tasks/list`, no
 * `tasks/result`). Pure functions with no SDK and no zod.
 */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The methods the extension defines, as a 2026-07-28 client sends them. */
export const EXTENSION_TASK_METHODS: ReadonlySet<string> = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);
/** The 2025-11-25 methods the extension removed: a 2026-07-28 request for them is -32601. */
export const REMOVED_TASK_METHODS: ReadonlySet<string> = new Set(['tasks/result', 'tasks/list']);

/** -32021: the request needs a capability the client did not declare. */
export const MISSING_CLIENT_CAPABILITY = -32021;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Whether a set of client capabilities declares the Tasks extension. */
export function capabilitiesTakeTasks(capabilities: unknown): boolean {
  return (
    isObject(capabilities) && isObject(capabilities.extensions) && isObject(capabilities.extensions[TASKS_EXTENSION])
  );
}

/** Whether a 2026-07-28 request's _meta declares the Tasks extension in the client's capabilities. */
export function declaresTasks(meta: unknown): boolean {
  return isObject(meta) && capabilitiesTakeTasks(meta[META_CAPABILITIES]);
}

/** Client capabilities with the Tasks extension added (what hub declares to a 2026-07-28 child). */
export function withTasksExtension<T extends Json>(capabilities: T): T {
  const extensions = isObject(capabilities.extensions) ? capabilities.extensions : {};
  return { ...capabilities, extensions: { ...extensions, [TASKS_EXTENSION]: {} } };
}

/** The error a task method gets from a client that did not declare the extension. */
export function tasksNotDeclared(method: string): RpcErrorBody {
  return {
    code: MISSING_CLIENT_CAPABILITY,
    message: `Missing required client capability: ${method} belongs to the Tasks extension; declare "extensions": {"${TASKS_EXTENSION}": {}} in params._meta["${META_CAPABILITIES}"].`,
    data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  };
}

/** A 2025-11-25 task's fields (ttl, pollInterval) as the extension names them (ttlMs, pollIntervalMs). */
export interface LegacyTask {
  taskId: string;
  status: string;
  statusMessage?: string | undefined;
  createdAt: string;
  lastUpdatedAt: string;
  ttl?: number | null | undefined;
  pollInterval?: number | undefined;
}

/** The 2026 Task of a 2025 one, under the given id. */
export function modernTask(task: LegacyTask, taskId: string): Json {
  return {
    taskId,
    status: task.status,
    ...(task.statusMessage !== undefined && { statusMessage: task.statusMessage }),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: typeof task.ttl === 'number' ? task.ttl : null,
    ...(typeof task.pollInterval === 'number' && { pollIntervalMs: task.pollInterval }),
  };
}

/** The 2025 Task of a 2026 one (the reverse of modernTask), under the given id. */
export function legacyTask(task: Json, taskId: string): LegacyTask {
  return {
    taskId,
    status: typeof task.status === 'string' ? task.status : 'working',
    ...(typeof task.statusMessage === 'string' && { statusMessage: task.statusMessage }),
    createdAt: typeof task.createdAt === 'string' ? task.createdAt : new Date().toISOString(),
    lastUpdatedAt: typeof task.lastUpdatedAt === 'string' ? task.lastUpdatedAt : new Date().toISOString(),
    ttl: typeof task.ttlMs === 'number' ? task.ttlMs : null,
    ...(typeof task.pollIntervalMs === 'number' && { pollInterval: task.pollIntervalMs }),
  };
}

/** What the modern lane asks of the proxy for the extension's methods (hub.ts provides it per session). */
export interface ExtensionTaskMethods {
  /** tasks/get, tasks/update or tasks/cancel of a client that declared the extension: the result, or throws an RpcError. */
  handle(method: string, params: Json): Promise<Json>;
}

// Looked for only in the results that may be tasks (a 2026-07-28 child's, or any for a client of
// the extension): every other result passes as bytes, unsearched.
const TASK_RESULT = /"resultType"\s*:\s*"task"/;

/** The CreateTaskResult a call was answered with (parsed from the child's bytes when it came raw), or undefined. */
export function taskResultOf(reply: object): Json | undefined {
  if (reply instanceof RawToolResult) {
    const line = reply.lineFor('0');
    if (!TASK_RESULT.test(line)) return undefined;
    const parsed = (JSON.parse(line) as { result?: unknown }).result;
    return isObject(parsed) && parsed.resultType === 'task' ? parsed : undefined;
  }
  return (reply as Json).resultType === 'task' ? (reply as Json) : undefined;
}

/**
 * hub's capabilities as `server/discover` tells a 2026-07-28 client (the full hub and the
 * cold-start lane alike): the Tasks extension in place of the 2025-11-25 `tasks` capability, which
 * the extension replaces (a server must not declare both under a revision that has the extension).
 * initialize still declares `tasks`.
 */
export function modernCapabilities(capabilities: Json): Json {
  const { tasks: _legacy, ...rest } = capabilities;
  return withTasksExtension(rest);
}
