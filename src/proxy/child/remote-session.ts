// One remote server's MCP session: calls with progress and timeout, a new session when forgotten.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { errorMessage } from '../../core/errors.js';
import type { ToolReply } from '../../wire/caller.js';
import { CallCancelledError, ChildTimeoutError, type FastCallOptions } from '../../wire/fast-calls.js';
import { RpcError } from '../../wire/rpc-error.js';
import { connectRemote, sessionLost, type RemoteConnectOptions, type RemoteTransportKind } from './remote-link.js';
import type { SignInRequired } from '../oauth/required.js';

// The result as the server sent it (hub passes it on; the client checks it).
const ResultSchema = z.looseObject({});
const MCP_PREFIX = /^MCP error -?\d+: /;
const TERMINATE_WAIT_MS = 1000;

export interface RemoteSessionOptions extends RemoteConnectOptions {
  /** The server can no longer be reached (the slot reconnects with backoff). */
  onLost(reason: string): void;
  /** A new session replaced one the server forgot: its lists may have changed. */
  onRenewed(): void;
  /** Why a call needs the person to sign in, with the authorization URL (oauth/connect.ts). */
  signInNeeded?(): SignInRequired | undefined;
}

/**
 * One remote server's MCP session, on the SDK Client lane (never the stdio fast lane's raw lines):
 * tools/call with progress, cancellation and a timeout reset by progress, a new session when the
 * server forgot ours (HTTP 404, once per call), and `onLost` when it cannot be reached.
 */
export class RemoteSession {
  #inFlight = 0;
  #renewing: Promise<void> | undefined;
  #transport: RemoteTransportKind | undefined;
  #lost = false;

  constructor(
    private readonly client: Client,
    private readonly options: RemoteSessionOptions,
  ) {}

  /** Which transport the server speaks, once connected. */
  get transport(): RemoteTransportKind | undefined {
    return this.#transport;
  }

  /** The protocol revision negotiated at initialize (the Streamable HTTP transport keeps it). */
  get protocolVersion(): string | undefined {
    const transport = this.client.transport;
    return transport instanceof StreamableHTTPClientTransport ? transport.protocolVersion : undefined;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  async open(): Promise<void> {
    this.#transport = await connectRemote(this.client, this.options);
    this.client.onclose = () => {
      // A renewal closes the old session on purpose; stop() is told apart by the slot's generation.
      if (this.#renewing === undefined) this.#markLost('closed the connection');
    };
  }

  #markLost(reason: string): void {
    if (this.#lost) return;
    this.#lost = true;
    this.options.log.write(`server ${reason}\n`);
    this.options.onLost(reason);
  }

  call(tool: string, args: Record<string, unknown> | undefined, options: FastCallOptions): Promise<CallToolResult> {
    return this.callRaw(tool, args, options) as Promise<CallToolResult>;
  }

  /** The same call for the fast path's caller: a remote result is always parsed (there are no raw lines). */
  async callRaw(tool: string, args: Record<string, unknown> | undefined, options: FastCallOptions): Promise<ToolReply> {
    // While the person signs in, calls answer with the same URL rather than making a new one.
    const waiting = this.options.signInNeeded?.();
    if (waiting !== undefined) throw waiting;
    this.#inFlight += 1;
    try {
      try {
        return await this.#once(tool, args, options);
      } catch (error) {
        if (!sessionLost(error)) throw error;
        await this.#renew();
        return await this.#once(tool, args, options);
      }
    } catch (error) {
      throw this.#explain(error);
    } finally {
      this.#inFlight -= 1;
    }
  }

  async #once(tool: string, args: Record<string, unknown> | undefined, options: FastCallOptions) {
    const controller = new AbortController();
    let cancelled: string | undefined;
    options.cancellable?.(reason => {
      cancelled = reason;
      controller.abort(reason);
    });
    const { progressToken: _theirs, ...meta } = options.meta ?? {};
    try {
      return (await this.client.request(
        { method: 'tools/call', params: { name: tool, arguments: args ?? {}, _meta: meta } },
        ResultSchema,
        {
          signal: controller.signal,
          timeout: options.timeoutMs,
          resetTimeoutOnProgress: true,
          // Always a token of ours, so progress resets the timeout as on the stdio lane.
          onprogress: progress => options.onprogress?.(progress),
        },
      )) as CallToolResult;
    } catch (error) {
      if (cancelled !== undefined) throw new CallCancelledError(cancelled);
      throw error;
    }
  }

  // One renewal at a time, however many calls found the session gone.
  #renew(): Promise<void> {
    this.#renewing ??= this.#startNewSession().finally(() => {
      this.#renewing = undefined;
    });
    return this.#renewing;
  }

  async #startNewSession(): Promise<void> {
    // Yield first, so #renewing is set before close() reports the old session's end.
    await Promise.resolve();
    this.options.log.write('the server forgot the session (HTTP 404): starting a new one\n');
    await this.client.close().catch(() => undefined);
    this.#transport = await connectRemote(this.client, this.options);
    this.options.onRenewed();
  }

  // The errors forwardCall knows: the server's own JSON-RPC error, a timeout, a sign-in to do.
  #explain(error: unknown): unknown {
    if (error instanceof CallCancelledError) return error;
    if (error instanceof McpError) {
      if (error.code === ErrorCode.RequestTimeout) return new ChildTimeoutError(error.message.replace(MCP_PREFIX, ''));
      if (error.code !== ErrorCode.ConnectionClosed)
        return RpcError.fromChild({
          code: error.code,
          message: error.message.replace(MCP_PREFIX, ''),
          data: error.data,
        });
    }
    if (error instanceof UnauthorizedError) {
      const signIn = this.options.signInNeeded?.();
      if (signIn !== undefined) return signIn;
    }
    // The server is unreachable (refused, reset, DNS): the slot reconnects with backoff.
    if (error instanceof TypeError || (error instanceof McpError && error.code === ErrorCode.ConnectionClosed))
      this.#markLost(`could not be reached: ${remoteFailure(error)}`);
    return error;
  }

  /** Ends the session (DELETE for Streamable HTTP, bounded) and the transport. */
  async close(): Promise<void> {
    const transport = this.client.transport;
    if (transport instanceof StreamableHTTPClientTransport) {
      await Promise.race([
        transport.terminateSession().catch(() => undefined),
        new Promise(resolve => setTimeout(resolve, TERMINATE_WAIT_MS).unref()),
      ]);
    }
    await this.client.close();
  }
}

/** Why a connection failed, in words: fetch's TypeError hides the reason (ECONNREFUSED…) in its cause. */
export function remoteFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const detail = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : '';
  return detail ? `${errorMessage(error)} (${detail})` : errorMessage(error);
}
