// Following a 2026-07-28 child's task for a caller that cannot take one: poll, relay, answer, cancel.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { errorMessage } from '../../core/errors.js';
import { CallCancelledError } from '../../wire/fast-calls.js';
import { RpcError } from '../../wire/rpc-error.js';
import type { ClientSide } from '../sessions/client-side.js';
import { answerInputs } from './input-required.js';

type Json = Record<string, unknown>;

const AnyResult = z.looseObject({});
// A caller waits this long at most (as tasks.maxWaitMs's default); the task is cancelled past it.
const MAX_WAIT_MS = 10 * 60_000;
// The child's pollIntervalMs, kept within reason (a child could ask for 0 or an hour).
const pollEvery = (task: Json) =>
  Math.min(Math.max(typeof task.pollIntervalMs === 'number' ? task.pollIntervalMs : 1000, 50), 5000);

export interface ChildTaskWait {
  readonly server: string;
  /** hub's Client of the child (tasks/get, tasks/update, tasks/cancel). */
  readonly client: Client;
  /** The client that answers the task's questions (a 2025 one, or a 2026 one through input rounds). */
  readonly upstream: ClientSide;
  readonly relatedRequestId?: string | number | undefined;
  readonly cancellable?: ((cancel: (reason: string) => void) => void) | undefined;
  readonly timeoutMs: number;
}

const fail = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

/**
 * A 2026-07-28 child answered a call `resultType: "task"` (hub declares the Tasks extension to
 * it) for a caller that cannot take a task (a 2025 client, or a 2026 one without the extension):
 * hub plays the task out for it, as it does a 2025 task for a client without tasks. It polls
 * tasks/get at the child's pollIntervalMs, puts each new question of the task to the client and
 * answers it with tasks/update, and answers the call with the task's result (its error, when it
 * failed). The caller's cancel is the child's tasks/cancel.
 */
export async function waitForChildTask(created: Json, wait: ChildTaskWait): Promise<CallToolResult> {
  const taskId = created.taskId;
  if (typeof taskId !== 'string') return fail(`Server "${wait.server}" answered with a task that has no taskId.`);
  const abort = new AbortController();
  wait.cancellable?.(reason => abort.abort(reason));
  const ask = (method: string, params: Json) =>
    wait.client.request({ method, params: { ...params, taskId } } as never, AnyResult, {
      timeout: wait.timeoutMs,
    }) as Promise<Json>;
  const answered = new Set<string>();
  const deadline = Date.now() + MAX_WAIT_MS;
  let task = created;
  try {
    for (;;) {
      if (abort.signal.aborted) throw new CallCancelledError(String(abort.signal.reason ?? 'cancelled'));
      switch (task.status) {
        case 'completed':
          return (task.result ?? { content: [] }) as CallToolResult;
        case 'failed': {
          const error = (task.error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
          throw RpcError.fromChild({ message: task.statusMessage ?? 'the task failed', ...error });
        }
        case 'cancelled':
          return fail(`Task ${taskId} was cancelled in server "${wait.server}".`);
        case 'input_required': {
          // Each key once in the task's life: a question still shown after its answer is not asked again.
          const requests = Object.fromEntries(
            Object.entries((task.inputRequests ?? {}) as Json).filter(([key]) => !answered.has(key)),
          ) as Parameters<typeof answerInputs>[0];
          if (Object.keys(requests ?? {}).length > 0) {
            let inputResponses: Json;
            try {
              inputResponses = await answerInputs(requests, wait, abort.signal);
            } catch (error) {
              if (abort.signal.aborted) throw error;
              await ask('tasks/cancel', {}).catch(() => undefined);
              return fail(
                `Server "${wait.server}" asked for input that hub could not get: ${errorMessage(error)}; hub cancelled task ${taskId}.`,
              );
            }
            for (const key of Object.keys(inputResponses)) answered.add(key);
            await ask('tasks/update', { inputResponses });
          }
          break;
        }
      }
      if (Date.now() > deadline) {
        await ask('tasks/cancel', {}).catch(() => undefined);
        return fail(
          `Task ${taskId} of server "${wait.server}" did not end within ${MAX_WAIT_MS} ms; hub cancelled it.`,
        );
      }
      await sleep(pollEvery(task), abort.signal);
      task = await ask('tasks/get', {});
    }
  } catch (error) {
    if (abort.signal.aborted) {
      await ask('tasks/cancel', {}).catch(() => undefined);
      throw new CallCancelledError(String(abort.signal.reason ?? 'cancelled'));
    }
    if (error instanceof RpcError) throw error;
    return fail(`Task ${taskId} of server "${wait.server}" could not be followed: ${errorMessage(error)}`);
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>(resolve => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
