// A 2026-07-28 request for tasks/get, tasks/update or tasks/cancel, handed to the proxy or refused.
import type { RpcErrorBody } from './era.js';
import { rpcErrorMember } from './rpc-error.js';
import {
  EXTENSION_TASK_METHODS,
  REMOVED_TASK_METHODS,
  declaresTasks,
  tasksNotDeclared,
  type ExtensionTaskMethods,
} from './tasks-extension.js';

export type { ExtensionTaskMethods } from './tasks-extension.js';

type Json = Record<string, unknown>;
type Id = string | number;

/**
 * A 2026-07-28 request for a task method (modern-lane.ts asks): the extension's tasks/get,
 * tasks/update and tasks/cancel go to the proxy (`tasks`) when the request declared the
 * extension (-32021 when not); the 2025 tasks/result and tasks/list, which the extension removed,
 * are -32601. True when it answered; anything else goes on (false).
 */
export function extensionTaskRequest(
  id: Id,
  method: string,
  params: unknown,
  meta: Json,
  tasks: ExtensionTaskMethods,
  answer: (id: Id, body: { result: Json } | { error: RpcErrorBody }) => void,
): boolean {
  if (REMOVED_TASK_METHODS.has(method)) {
    answer(id, {
      error: {
        code: -32601,
        message: `Method not found: ${method} is not part of protocol revision 2026-07-28. With the Tasks extension, tasks/get returns a task's result once it completed, and there is no task list.`,
      },
    });
    return true;
  }
  if (!EXTENSION_TASK_METHODS.has(method)) return false;
  if (!declaresTasks(meta)) {
    answer(id, { error: tasksNotDeclared(method) });
    return true;
  }
  const given = params !== null && typeof params === 'object' && !Array.isArray(params) ? (params as Json) : {};
  if (typeof given.taskId !== 'string') {
    answer(id, { error: { code: -32602, message: `Invalid params: ${method} needs params.taskId, a string.` } });
    return true;
  }
  tasks.handle(method, given).then(
    result => answer(id, { result }),
    (error: unknown) => answer(id, { error: rpcErrorMember(error) }),
  );
  return true;
}
