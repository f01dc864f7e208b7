// Questions of the tasks hub runs for Tasks-extension clients, held for tasks/get instead of sent.
import { RELATED_TASK_META_KEY, type ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { ClientSide, RelayOptions } from '../sessions/client-side.js';
import type { ExtensionTasks } from './extension-tasks.js';
import type { TaskRoutes } from './task-routes.js';

type Json = Record<string, unknown>;

/**
 * The client side the children see, with the questions of the tasks hub runs for clients of the
 * Tasks extension kept back: a 2026-07-28 client takes no requests from servers, so a child's
 * elicitation or sampling that names such a task (related-task, the child's id) waits in the task
 * as an inputRequest (extension-tasks.ts) instead of going to the client. Everything else passes.
 */
export function withExtensionTaskInputs(client: ClientSide, routes: TaskRoutes, tasks: ExtensionTasks): ClientSide {
  const held = (params: { _meta?: Json | undefined }): string | undefined => {
    const related = params._meta?.[RELATED_TASK_META_KEY] as { taskId?: unknown } | undefined;
    if (typeof related?.taskId !== 'string') return undefined;
    const route = routes.soleByChildId(related.taskId);
    return route && tasks.holds(route.id) ? route.id : undefined;
  };
  // The question as the client will read it: the task is named by hub's id, which it knows.
  const asked = (taskId: string, method: string, params: Json, options: RelayOptions) =>
    tasks.ask(
      taskId,
      method,
      { ...params, _meta: { ...(params._meta as Json), [RELATED_TASK_META_KEY]: { taskId } } },
      options.signal,
    );
  return {
    ...client,
    // The relay checks the client can answer: a task's client declared it in its envelope.
    capabilities: () => {
      const extra = tasks.capabilities();
      const base = client.capabilities();
      return extra === undefined ? base : ({ ...extra, ...base } as ClientCapabilities);
    },
    createMessage: (params, options) => {
      const taskId = held(params);
      if (taskId === undefined) return client.createMessage(params, options);
      return asked(taskId, 'sampling/createMessage', params, options) as ReturnType<ClientSide['createMessage']>;
    },
    elicitInput: (params, options) => {
      const taskId = held(params);
      if (taskId === undefined) return client.elicitInput(params, options);
      return asked(taskId, 'elicitation/create', params, options) as ReturnType<ClientSide['elicitInput']>;
    },
  };
}
