import { McpError, type CallToolResult, type Progress } from '@modelcontextprotocol/sdk/types.js';
import type { ChildProcessTransport } from './child-transport.js';

/** The child did not answer within the timeout (reset by each progress notification). */
export class ChildTimeoutError extends Error {
  override readonly name = 'ChildTimeoutError';
}

export interface FastCallOptions {
  signal?: AbortSignal | undefined;
  /** Each progress notification of this call (the child always gets a token of ours, so progress resets the timeout). */
  onprogress?: ((progress: Progress) => void) | undefined;
  timeoutMs: number;
  /** The caller's _meta, passed on (its progressToken is replaced by ours). */
  meta?: Record<string, unknown> | undefined;
}

interface Pending {
  resolve(result: CallToolResult): void;
  reject(error: Error): void;
  onprogress: ((progress: Progress) => void) | undefined;
  armTimer(): void;
}

const FAST_ID = /^hub-\d+$/;

/**
 * tools/call on the hot path, next to the SDK Client on the same transport: string ids the
 * Client never uses, one JSON.stringify out and one JSON.parse in, no zod on the result (hub
 * returns the child's result as it is). Everything else (handshake, tools/list, child requests,
 * notifications) stays with the SDK Client.
 */
export class FastCalls {
  #pending = new Map<string, Pending>();
  #seq = 0;

  constructor(private readonly transport: ChildProcessTransport) {
    transport.intercept = message => this.#intercept(message);
  }

  get inFlight(): number {
    return this.#pending.size;
  }

  call(tool: string, args: Record<string, unknown> | undefined, options: FastCallOptions): Promise<CallToolResult> {
    const id = `hub-${++this.#seq}`;
    const { progressToken: _callerToken, ...meta } = options.meta ?? {};
    meta.progressToken = id;
    const params = { name: tool, arguments: args ?? {}, _meta: meta };
    const line = `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params })}\n`;
    const { signal, timeoutMs } = options;
    return new Promise<CallToolResult>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error('Request was cancelled'));
      let timer: NodeJS.Timeout | undefined;
      const cancelChild = (reason: string) => {
        this.transport.sendRaw(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } })}\n`).catch(() => undefined);
      };
      const onAbort = () => {
        finish();
        cancelChild(String(signal?.reason ?? 'cancelled by the client'));
        reject(signal?.reason instanceof Error ? signal.reason : new Error('Request was cancelled'));
      };
      const finish = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.#pending.delete(id);
      };
      const armTimer = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          finish();
          cancelChild('timed out');
          reject(new ChildTimeoutError(`no answer within ${timeoutMs} ms`));
        }, timeoutMs);
      };
      this.#pending.set(id, {
        resolve: result => (finish(), resolve(result)),
        reject: error => (finish(), reject(error)),
        onprogress: options.onprogress,
        armTimer,
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      armTimer();
      this.transport.sendRaw(line).catch((error: Error) => this.#pending.get(id)?.reject(error));
    });
  }

  #intercept(message: Record<string, unknown>): boolean {
    const id = message.id;
    if (typeof id === 'string' && message.method === undefined) {
      if (!FAST_ID.test(id)) return false;
      const pending = this.#pending.get(id);
      // Late answers to cancelled or timed-out calls are dropped here.
      if (!pending) return true;
      const error = message.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
      if (error) pending.reject(new McpError(Number(error.code ?? -32603), String(error.message ?? 'error from the server'), error.data));
      else if (message.result && typeof message.result === 'object') pending.resolve(message.result as CallToolResult);
      else pending.reject(new McpError(-32603, 'the server answered tools/call without a result object'));
      return true;
    }
    if (message.method === 'notifications/progress') {
      const params = message.params as (Progress & { progressToken?: unknown }) | undefined;
      const token = params?.progressToken;
      if (typeof token !== 'string' || !FAST_ID.test(token)) return false;
      const pending = this.#pending.get(token);
      if (pending && params) {
        pending.armTimer();
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
    for (const pending of [...this.#pending.values()]) pending.reject(error);
  }
}
