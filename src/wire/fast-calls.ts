// The child-side fast lane: proxied calls written to one child's line channel, ids rewritten.
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import type { ToolReply } from './caller.js';
import { fastResponse, type RawToolResult } from './raw-result.js';
import { RpcError } from './rpc-error.js';
import type { SessionInterceptor } from './session.js';

/**
 * The line channel to one server as FastCalls uses it: a child's stdio (ChildProcessTransport)
 * today, a remote server's session later. FastCalls sets both hooks.
 */
export interface CallChannel {
  /** Writes one serialized JSON-RPC line to the server. */
  sendRaw(line: string): Promise<void>;
  /** Sees each parsed message from the server first; true consumes it. */
  intercept?: SessionInterceptor;
  /** Sees each line from the server before it is parsed; true consumes it. */
  interceptLine?: (line: string) => boolean;
}

/** The child did not answer within the timeout (reset by each progress notification). */
export class ChildTimeoutError extends Error {
  override readonly name = 'ChildTimeoutError';
}

/** The caller cancelled; no answer is owed to it. */
export class CallCancelledError extends Error {
  override readonly name = 'CallCancelledError';
}

export interface FastCallOptions {
  /** Each progress notification of this call (the child always gets a token of ours, so progress resets the timeout). */
  onprogress?: ((progress: Progress) => void) | undefined;
  timeoutMs: number;
  /** The caller's _meta, passed on (its progressToken is replaced by ours). */
  meta?: Record<string, unknown> | undefined;
  /** More request params (a 2026-07-28 retry's inputResponses and requestState). */
  params?: Record<string, unknown> | undefined;
  /** The caller's request id (for what the child asks in answer). */
  relatedRequestId?: string | number | undefined;
  /** Receives the function that cancels this call (notifications/cancelled to the child). */
  cancellable?: ((cancel: (reason: string) => void) => void) | undefined;
}

const FAST_ID = /^hub-\d+$/;

/** A response line of the child that answers nothing hub asked, or answers in no valid shape. */
export interface StrayResponse {
  readonly id: unknown;
  readonly why: 'never sent' | 'malformed';
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

// A response as the SDK Client takes one: a result object, or an error with a code and a message.
function wellFormed(message: Record<string, unknown>): boolean {
  const { result, error } = message;
  if ((result === undefined) === (error === undefined)) return false;
  if (result !== undefined) return isObject(result);
  return isObject(error) && Number.isInteger(error.code) && typeof error.message === 'string';
}

// One object per call; the timeout is checked by one sweeping timer rather than a timer per call.
class Pending {
  deadline: number;
  constructor(
    readonly resolve: (result: CallToolResult) => void,
    /** Set for callRaw: takes the child's result line unparsed. */
    readonly takeRaw: ((result: RawToolResult) => void) | undefined,
    readonly reject: (error: Error) => void,
    readonly onprogress: ((progress: Progress) => void) | undefined,
    readonly timeoutMs: number,
  ) {
    this.deadline = Date.now() + timeoutMs;
  }
}

/**
 * tools/call on the hot path, next to the SDK Client on the same transport: string ids the
 * Client never uses, one JSON.stringify out, no zod on the result (hub returns the child's result
 * as it is). For the fast path the result line is not even parsed (raw-result.ts); other lines
 * get one JSON.parse. Everything else (handshake, tools/list, child requests, notifications)
 * stays with the SDK Client.
 */
export class FastCalls {
  #pending = new Map<string, Pending>();
  #seq = 0;
  #sweeper: NodeJS.Timeout | undefined;
  #sweepEveryMs = 1000;

  /** stray: told of each response line that answers nothing sent, or in no valid shape. */
  constructor(
    private readonly transport: CallChannel,
    private readonly stray: (response: StrayResponse) => void = () => undefined,
  ) {
    transport.intercept = message => this.#intercept(message);
    transport.interceptLine = line => this.#interceptLine(line);
  }

  get inFlight(): number {
    return this.#pending.size;
  }

  /** tools/call with the result parsed. */
  call(tool: string, args: Record<string, unknown> | undefined, options: FastCallOptions): Promise<CallToolResult> {
    return new Promise((resolve, reject) => this.#send(tool, args, options, resolve, undefined, reject));
  }

  /** tools/call for a caller that writes the answer as bytes: the result line unparsed when it qualifies. */
  callRaw(tool: string, args: Record<string, unknown> | undefined, options: FastCallOptions): Promise<ToolReply> {
    return new Promise((resolve, reject) => this.#send(tool, args, options, resolve, resolve, reject));
  }

  #send(
    tool: string,
    args: Record<string, unknown> | undefined,
    options: FastCallOptions,
    resolve: (result: CallToolResult) => void,
    takeRaw: ((result: RawToolResult) => void) | undefined,
    reject: (error: Error) => void,
  ): void {
    const id = `hub-${++this.#seq}`;
    const meta: Record<string, unknown> = { ...options.meta, progressToken: id };
    const line = `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":${JSON.stringify({ name: tool, arguments: args ?? {}, ...options.params, _meta: meta })}}\n`;
    this.#pending.set(id, new Pending(resolve, takeRaw, reject, options.onprogress, options.timeoutMs));
    this.#armSweeper(options.timeoutMs);
    let sent = false;
    options.cancellable?.(reason => {
      if (!this.#pending.delete(id)) return;
      if (sent) this.#cancelInChild(id, reason);
      reject(new CallCancelledError(reason));
    });
    // Cancelled already (while the child was starting): the child never sees the call.
    if (!this.#pending.has(id)) return;
    sent = true;
    this.transport.sendRaw(line).catch((error: Error) => this.#settle(id)?.reject(error));
  }

  #settle(id: string): Pending | undefined {
    const pending = this.#pending.get(id);
    if (pending) this.#pending.delete(id);
    return pending;
  }

  #cancelInChild(id: string, reason: string): void {
    this.transport
      .sendRaw(
        `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } })}\n`,
      )
      .catch(() => undefined);
  }

  #armSweeper(timeoutMs: number): void {
    // Timeouts are checked at a quarter of the shortest one (at most every second).
    const every = Math.max(25, Math.min(1000, Math.floor(timeoutMs / 4)));
    if (this.#sweeper && every >= this.#sweepEveryMs) return;
    clearInterval(this.#sweeper);
    this.#sweepEveryMs = every;
    this.#sweeper = setInterval(() => this.#sweep(), every);
    this.#sweeper.unref();
  }

  #sweep(): void {
    if (this.#pending.size === 0) {
      clearInterval(this.#sweeper);
      this.#sweeper = undefined;
      this.#sweepEveryMs = 1000;
      return;
    }
    const now = Date.now();
    for (const [id, pending] of this.#pending) {
      if (pending.deadline > now) continue;
      this.#pending.delete(id);
      this.#cancelInChild(id, 'timed out');
      pending.reject(new ChildTimeoutError(`no answer within ${pending.timeoutMs} ms`));
    }
  }

  #interceptLine(line: string): boolean {
    const response = fastResponse(line);
    if (!response) return false;
    const pending = this.#pending.get(response.id);
    // Late answers to cancelled or timed-out calls are dropped here; a spoofed id is said.
    if (!pending) return this.#unasked(response.id);
    if (!pending.takeRaw) return false;
    this.#pending.delete(response.id);
    // Only a RawCaller takes it, and it writes the line back without looking inside.
    pending.takeRaw(response.result);
    return true;
  }

  // An id past the last one sent was never sent: a spoofed response. Lower ones are late answers.
  #unasked(id: string): true {
    if (Number(id.slice(4)) > this.#seq) this.stray({ id, why: 'never sent' });
    return true;
  }

  #intercept(message: Record<string, unknown>): boolean {
    const id = message.id;
    const response = id !== undefined && message.method === undefined;
    const ours = response && typeof id === 'string' && FAST_ID.test(id);
    if (response && !ours) {
      // The SDK Client's own requests: a malformed answer would be dropped as an "unknown message
      // type" while its request waits for its timeout. Made an error for that request instead.
      if (!wellFormed(message)) {
        this.stray({ id, why: 'malformed' });
        delete message.result;
        message.error = {
          code: -32603,
          message:
            'the server answered with a malformed response (neither a result object nor an error with a code and a message)',
        };
      }
      return false;
    }
    if (ours) {
      // Late answers to cancelled or timed-out calls are dropped here.
      const pending = this.#settle(id);
      if (!pending) return this.#unasked(id);
      if (!wellFormed(message)) this.stray({ id, why: 'malformed' });
      const error = message.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
      // The child's error word for word (an McpError would prefix its message once more).
      if (error && typeof error === 'object') pending.reject(RpcError.fromChild(error));
      else if (message.result && typeof message.result === 'object') pending.resolve(message.result as CallToolResult);
      else pending.reject(new RpcError(-32603, 'the server answered tools/call without a result object'));
      return true;
    }
    if (message.method === 'notifications/progress') {
      const params = message.params as (Progress & { progressToken?: unknown }) | undefined;
      const token = params?.progressToken;
      if (typeof token !== 'string' || !FAST_ID.test(token)) return false;
      const pending = this.#pending.get(token);
      if (pending && params) {
        pending.deadline = Date.now() + pending.timeoutMs;
        if (pending.onprogress) {
          const { progressToken: _token, ...progress } = params;
          pending.onprogress(progress);
        }
      }
      return true;
    }
    return false;
  }

  /** The connection is gone: every call in flight fails now rather than at its timeout. */
  failAll(error: Error): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    for (const call of pending) call.reject(error);
  }
}
