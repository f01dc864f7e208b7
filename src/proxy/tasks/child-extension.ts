// 2025-11-25 tasks of a client served by a child that speaks the 2026-07-28 Tasks extension.
import { randomUUID } from 'node:crypto';
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  ErrorCode,
  ListRootsResultSchema,
  RELATED_TASK_META_KEY,
  type CreateTaskResult,
  type GetTaskResult,
  type Result,
  type Task,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { RpcError } from '../../wire/rpc-error.js';
import { legacyTask, taskResultOf } from '../../wire/tasks-extension.js';
import type { ChildConnection } from '../child/connection.js';
import { relayLabels } from '../child/relay-labels.js';
import type { ServerExtra } from '../sessions/client-side.js';
import { asClientTask, isTerminal, type TaskRoute, type TaskRoutes } from './task-routes.js';

type Json = Record<string, unknown>;

const AnyResult = z.looseObject({});
const ANSWERS: Record<string, z.ZodType> = {
  'elicitation/create': ElicitResultSchema,
  'sampling/createMessage': CreateMessageResultSchema,
  'roots/list': ListRootsResultSchema,
};
// The child's pollIntervalMs, kept within reason.
const pollEvery = (task: Task) => Math.min(Math.max(task.pollInterval ?? 1000, 50), 5000);

/**
 * 2025-11-25 tasks (a client's task-augmented call, tasks/get, tasks/result, tasks/cancel) over a
 * 2026-07-28 child's Tasks extension (forward.ts asks for the routes it made): the call goes to
 * the child without `task` (the extension has none; the child decides), a `resultType: "task"`
 * answer becomes hub's task, an immediate answer a task already completed. tasks/result polls the
 * child's tasks/get and puts each of its inputRequests to the client on the tasks/result stream
 * (as a 2025 child would), answering the child with tasks/update.
 */
export class ChildExtensionTasks {
  #ids = new Set<string>();
  // Immediate answers, by hub's id: their task never existed in the child.
  #done = new Map<string, Json>();

  constructor(
    private readonly routes: TaskRoutes,
    private readonly timeoutMs: number,
  ) {}

  has(route: TaskRoute): boolean {
    return this.#ids.has(route.id);
  }

  async create(
    server: string,
    conn: ChildConnection,
    label: string,
    params: Json,
    options: { signal: AbortSignal; owner: object | undefined; hold: () => () => void },
  ): Promise<CreateTaskResult> {
    const answer = await conn.request({ method: 'tools/call', params }, AnyResult, {
      timeout: this.timeoutMs,
      signal: options.signal,
    });
    const created = taskResultOf(answer);
    const now = new Date().toISOString();
    const task: Task = created
      ? (legacyTask(created, String(created.taskId)) as Task)
      : { taskId: `hub-${randomUUID()}`, status: 'completed', createdAt: now, lastUpdatedAt: now, ttl: null };
    const route = this.routes.add(server, conn, label, task, {
      clientOwned: true,
      owner: options.owner,
      ...(created && { hold: options.hold }),
    });
    this.#ids.add(route.id);
    if (!created) this.#done.set(route.id, answer);
    return { task: asClientTask(route, route.last) };
  }

  async get(route: TaskRoute): Promise<GetTaskResult> {
    if (this.#done.has(route.id)) return asClientTask(route, route.last);
    return asClientTask(route, await this.#poll(route));
  }

  async result(route: TaskRoute, extra: ServerExtra, maxWaitMs: number): Promise<Result> {
    const done = this.#done.get(route.id);
    if (done) return done;
    const deadline = Date.now() + maxWaitMs;
    const answered = new Set<string>();
    for (;;) {
      const task = await this.#poll(route);
      const child = this.#last.get(route.id) ?? {};
      if (task.status === 'completed') return this.#related(route, (child.result ?? {}) as Json);
      if (task.status === 'failed') throw RpcError.fromChild((child.error ?? { message: task.statusMessage }) as Json);
      if (task.status === 'cancelled')
        throw new RpcError(ErrorCode.InvalidParams, `Task ${route.id} was cancelled in server "${route.server}".`);
      if (task.status === 'input_required') await this.#answer(route, child, answered, extra);
      if (Date.now() > deadline)
        throw new RpcError(
          ErrorCode.RequestTimeout,
          `Task ${route.id} is still running after ${maxWaitMs} ms (tasks.maxWaitMs): poll tasks/get and call tasks/result once it has ended.`,
        );
      await new Promise(resolve => setTimeout(resolve, pollEvery(task)));
      if (extra.signal.aborted) throw new RpcError(ErrorCode.InvalidRequest, 'tasks/result was cancelled');
    }
  }

  async cancel(route: TaskRoute): Promise<GetTaskResult> {
    if (this.#done.has(route.id) || isTerminal(route.last)) return asClientTask(route, route.last);
    await this.#ask(route, 'tasks/cancel', {});
    return asClientTask(route, await this.#poll(route));
  }

  // The child's last tasks/get, with its result, error or inputRequests.
  #last = new Map<string, Json>();

  async #poll(route: TaskRoute): Promise<Task> {
    const answer = await this.#ask(route, 'tasks/get', {});
    this.#last.set(route.id, answer);
    const task = legacyTask(answer, route.childId) as Task;
    this.routes.seen(route.server, task);
    if (isTerminal(task) && this.#ids.size > 1000) this.#forgetOldest();
    return task;
  }

  #ask(route: TaskRoute, method: string, params: Json): Promise<Json> {
    return route.conn.request({ method, params: { ...params, taskId: route.childId } }, AnyResult, {
      timeout: this.timeoutMs,
    }) as Promise<Json>;
  }

  // Each new question of the task to the client, on the tasks/result stream; the answers to the child.
  async #answer(route: TaskRoute, child: Json, answered: Set<string>, extra: ServerExtra): Promise<void> {
    const requests = (child.inputRequests ?? {}) as Record<string, { method?: unknown; params?: unknown }>;
    const inputResponses: Json = {};
    for (const [key, request] of Object.entries(requests)) {
      if (answered.has(key)) continue;
      const method = String(request.method);
      const schema = ANSWERS[method];
      if (!schema) throw new RpcError(-32601, `Server "${route.server}" asked for ${method}, which no client answers.`);
      const labels = relayLabels(route.server, () => undefined);
      const given = (request.params ?? {}) as Json;
      // Labelled with the server's name, as any request hub relays.
      const params = (
        method === 'elicitation/create'
          ? labels.elicitation(given as never)
          : method === 'sampling/createMessage'
            ? labels.sampling(given as never)
            : given
      ) as Json;
      const meta = { ...(params._meta as Json | undefined), [RELATED_TASK_META_KEY]: { taskId: route.id } };
      inputResponses[key] = await extra.sendRequest({ method, params: { ...params, _meta: meta } } as never, schema);
      answered.add(key);
    }
    if (Object.keys(inputResponses).length > 0) await this.#ask(route, 'tasks/update', { inputResponses });
  }

  #related(route: TaskRoute, result: Json): Json {
    const meta = (result._meta ?? {}) as Json;
    return { ...result, _meta: { ...meta, [RELATED_TASK_META_KEY]: { taskId: route.id } } };
  }

  #forgetOldest(): void {
    const oldest = this.#ids.values().next().value;
    if (oldest === undefined) return;
    this.#ids.delete(oldest);
    this.#done.delete(oldest);
    this.#last.delete(oldest);
  }
}
