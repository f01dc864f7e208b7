// The questions one task's child put to the person, held as inputRequests until answered.
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { RpcError } from '../../wire/rpc-error.js';

type Json = Record<string, unknown>;

interface Question {
  readonly method: string;
  readonly params: Json;
  resolve(answer: Json): void;
  reject(error: Error): void;
}

// Questions open at once per task: a child asks one at a time; more is a child gone wrong.
const MAX_OPEN = 16;

/**
 * The questions one task's child put to the person (elicitation/create, sampling/createMessage,
 * roots/list), as the Tasks extension carries them: `inputRequests` in tasks/get, keyed by a
 * number never reused in the task's life, answered by `inputResponses` in tasks/update. An answer
 * to a key that is not open (never asked, answered already) is ignored, as the extension says.
 */
export class TaskInputs {
  #open = new Map<string, Question>();
  #asked = 0;
  #closed: string | undefined;

  /** A child's request: resolves with the client's answer (the child's signal withdraws it). */
  ask(method: string, params: Json, signal: AbortSignal): Promise<Json> {
    if (this.#closed !== undefined)
      return Promise.reject(new RpcError(ErrorCode.InvalidRequest, `no one can answer: ${this.#closed}.`));
    if (this.#open.size >= MAX_OPEN)
      return Promise.reject(
        new RpcError(ErrorCode.InvalidRequest, `${MAX_OPEN} questions of this task are open already; refused.`),
      );
    this.#asked += 1;
    const key = String(this.#asked);
    return new Promise<Json>((resolve, reject) => {
      this.#open.set(key, { method, params, resolve, reject });
      signal.addEventListener(
        'abort',
        () => {
          if (this.#open.delete(key))
            reject(new RpcError(ErrorCode.InvalidRequest, 'the server withdrew its question'));
        },
        { once: true },
      );
    });
  }

  /** The open questions as inputRequests, or undefined when none is open. */
  open(): Json | undefined {
    if (this.#open.size === 0) return undefined;
    const requests: Json = {};
    for (const [key, { method, params }] of this.#open) requests[key] = { method, params };
    return requests;
  }

  /** The client's inputResponses: each open key's answer goes to the child; other keys are ignored. */
  answer(responses: Json): void {
    for (const [key, response] of Object.entries(responses)) {
      const question = this.#open.get(key);
      if (!question) continue;
      this.#open.delete(key);
      if (response !== null && typeof response === 'object' && !Array.isArray(response))
        question.resolve(response as Json);
      else question.reject(new RpcError(ErrorCode.InvalidParams, `the client answered input ${key} with no object`));
    }
  }

  /** The task ended or was cancelled: open questions are refused to the child, and no more are taken. */
  close(why: string): void {
    this.#closed = why;
    for (const question of this.#open.values())
      question.reject(new RpcError(ErrorCode.InvalidRequest, `no answer: ${why}.`));
    this.#open.clear();
  }
}
