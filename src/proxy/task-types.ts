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

/** Task-augmented calls and tasks/* for a client that speaks tasks (task-forwarding.ts; hub.ts registers them). */
export interface ProxiedTasks {
  /** tools/call with params.task for a proxied tool: the child creates the task, hub names it. */
  create(name: string, args: Args, task: TaskMetadata, extra: Extra): Promise<CreateTaskResult>;
  get(taskId: string, extra: Extra): Promise<GetTaskResult>;
  /** Waits for the task to end (tasks.maxWaitMs at most), as the spec's tasks/result does. */
  result(taskId: string, extra: Extra): Promise<Result>;
  list(cursor: string | undefined): Promise<ListTasksResult>;
  cancel(taskId: string, extra: Extra): Promise<CancelTaskResult>;
  /** Sets where status notifications of the tasks go (notifications/tasks/status, hub's ids). */
  onStatus(listener: (task: GetTaskResult) => void): void;
}
