// A child's requests during a task relayed under hub's task id, to the session that owns it.
import { RELATED_TASK_META_KEY } from '@modelcontextprotocol/sdk/types.js';
import type { ClientSide, RelayOptions } from '../sessions/client-side.js';
import type { TaskRoutes } from './task-routes.js';

type Meta = Record<string, unknown>;

/**
 * The client side the children see, with the task a relayed request belongs to named by hub's
 * id: a child's elicitation or sampling during a task says `related-task: <its own id>`, which
 * the client never saw. An id hub cannot tell apart (two children with the same live id) is left
 * out rather than passed on as it is.
 */
export function withHubTaskIds(client: ClientSide, routes: TaskRoutes): ClientSide {
  const mapped = <P extends { _meta?: Meta | undefined }>(params: P, options: RelayOptions): [P, RelayOptions] => {
    const meta = params._meta;
    const related = meta?.[RELATED_TASK_META_KEY] as { taskId?: unknown } | undefined;
    if (!meta || typeof related?.taskId !== 'string') return [params, options];
    const route = routes.soleByChildId(related.taskId);
    const { [RELATED_TASK_META_KEY]: _child, ...rest } = meta;
    if (!route) return [{ ...params, _meta: rest }, options];
    // A task's question goes to the session that owns the task (a shared hub has many).
    return [
      { ...params, _meta: { ...rest, [RELATED_TASK_META_KEY]: { taskId: route.id } } },
      route.owner === undefined ? options : { ...options, session: route.owner },
    ];
  };
  return {
    ...client,
    createMessage: (params, options) => client.createMessage(...mapped(params, options)),
    elicitInput: (params, options) => client.elicitInput(...mapped(params, options)),
  };
}
