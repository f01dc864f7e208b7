// The tasks/* handlers and capability, and the revision negotiated with the client.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CancelTaskRequestSchema,
  ErrorCode,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  LATEST_PROTOCOL_VERSION,
  ListTasksRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CreateTaskResult,
  type ServerCapabilities,
  type TaskMetadata,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../core/logger.js';
import { RpcError } from '../../wire/rpc-error.js';
import type { ClientSide } from '../sessions/client-side.js';
import { clientTakesTasks } from '../listing/task-listing.js';
import type { ProxiedTasks } from './types.js';
import type { ServerExtra } from '../sessions/client-side.js';

/** What hub declares of tasks: task-augmented tools/call (for the tools that allow it), list, cancel. */
export const TASKS_CAPABILITY: NonNullable<ServerCapabilities['tasks']> = {
  list: {},
  cancel: {},
  requests: { tools: { call: {} } },
};

/**
 * The protocol revision hub negotiated with its client, read off the client's initialize as it
 * arrives (the SDK Server answers it the same way: the client's revision when supported, else the
 * latest) and whether that client speaks tasks.
 */
export class ClientProtocol {
  #version: string | undefined;

  constructor(
    private readonly client: ClientSide,
    private readonly log: Logger,
  ) {}

  /** Sees every message from the client first (the transport's interceptor); takes none. */
  note(message: Record<string, unknown>): void {
    if (message.method !== 'initialize' || message.id === undefined) return;
    const params = message.params as { protocolVersion?: unknown; clientInfo?: { name?: unknown } } | undefined;
    const asked = params?.protocolVersion;
    this.#version =
      typeof asked === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : LATEST_PROTOCOL_VERSION;
    this.log.debug({ client: params?.clientInfo?.name, protocolVersion: this.#version }, 'client protocol revision');
  }

  /** The revision negotiated with the client; undefined before initialize, and on a transport with no interceptor. */
  get version(): string | undefined {
    return this.#version;
  }

  /** The client declared tasks, in a revision that has them. */
  takesTasks(): boolean {
    return clientTakesTasks(this.client.capabilities(), this.#version);
  }
}

const noTasks = (taskId: string) =>
  new RpcError(ErrorCode.InvalidParams, `Task not found: ${taskId}. hub runs no tasks here.`);

/**
 * hub.ts's handlers for tasks/get, tasks/result, tasks/list and tasks/cancel over the proxied
 * servers' tasks (tasks/forward.ts), and the relay of their status notifications to a client
 * that speaks tasks.
 */
/** tasks/* on one session's Server, over owner's tasks only; returns the undo (the session closed). */
export function registerTasks(
  server: Server,
  tasks: ProxiedTasks | undefined,
  protocol: ClientProtocol,
  owner?: object,
): () => void {
  server.setRequestHandler(GetTaskRequestSchema, (request, extra) => {
    if (!tasks) throw noTasks(request.params.taskId);
    return tasks.get(request.params.taskId, extra, owner);
  });
  server.setRequestHandler(GetTaskPayloadRequestSchema, (request, extra) => {
    if (!tasks) throw noTasks(request.params.taskId);
    return tasks.result(request.params.taskId, extra, owner);
  });
  server.setRequestHandler(
    ListTasksRequestSchema,
    request => tasks?.list(request.params?.cursor, owner) ?? { tasks: [] },
  );
  server.setRequestHandler(CancelTaskRequestSchema, (request, extra) => {
    if (!tasks) throw noTasks(request.params.taskId);
    return tasks.cancel(request.params.taskId, extra, owner);
  });
  return (
    tasks?.onStatus(task => {
      if (protocol.takesTasks())
        server.notification({ method: 'notifications/tasks/status', params: task }).catch(() => undefined);
    }, owner) ?? (() => undefined)
  );
}

/** A tools/call with params.task: a proxied tool's task, or a clear refusal for hub's own tools. */
export function callAsTask(
  tasks: ProxiedTasks | undefined,
  call: { name: string; args: Record<string, unknown> | undefined; task: TaskMetadata; ownTool: boolean },
  extra: ServerExtra,
): Promise<CreateTaskResult> {
  if (call.ownTool)
    throw new RpcError(
      ErrorCode.MethodNotFound,
      `${call.name} is one of hub's own tools, which do not run as tasks; call it without params.task.`,
    );
  if (!tasks)
    throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${call.name}. Call tools/list to see the tools.`);
  return tasks.create(call.name, call.args, call.task, extra);
}
