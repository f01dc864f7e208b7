// ProxiedTasks: task-augmented calls and tasks/*, each task seen only by its own session.
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CancelTaskResult,
  CreateTaskResult,
  GetTaskResult,
  ListTasksResult,
  Result,
  ServerNotification,
  ServerRequest,
  TaskMetadata,
} from '@modelcontextprotocol/sdk/types.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
type Args = Record<string, unknown> | undefined;

/**
 * Task-augmented calls and tasks/* for a client that speaks tasks (tasks/forward.ts; hub.ts
 * registers them). A task belongs to the session that created it (extra.session at create; the
 * `owner` of the others): on a shared hub no other session sees, reads or cancels it.
 */
export interface ProxiedTasks {
  /** tools/call with params.task for a proxied tool: the child creates the task, hub names it. */
  create(name: string, args: Args, task: TaskMetadata, extra: Extra): Promise<CreateTaskResult>;
  get(taskId: string, extra: Extra, owner?: object): Promise<GetTaskResult>;
  /** Waits for the task to end (tasks.maxWaitMs at most), as the spec's tasks/result does. */
  result(taskId: string, extra: Extra, owner?: object): Promise<Result>;
  list(cursor: string | undefined, owner?: object): Promise<ListTasksResult>;
  cancel(taskId: string, extra: Extra, owner?: object): Promise<CancelTaskResult>;
  /** Where status notifications of owner's tasks go (notifications/tasks/status, hub's ids); returns the undo. */
  onStatus(listener: (task: GetTaskResult) => void, owner?: object): () => void;
}
