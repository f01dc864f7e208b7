// One request forwarded to a child besides tools/call: prompts/get, resources/read, completion.
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ErrorCode, McpError, type ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { errorMessage, isHubError } from '../../core/errors.js';
import { telemetry } from '../../core/telemetry/telemetry.js';
import { RpcError } from '../../wire/rpc-error.js';
import { requestSpan } from '../calls/span.js';
import type { ReadCall } from './resource-source.js';
import type { ServerSlot } from '../slots/server-slot.js';

/** A request for a child (prompts/get, resources/read, resources/subscribe, completion/complete). */
export interface ChildRequest {
  readonly method: string;
  readonly params: Record<string, unknown>;
  /** What the child must have declared to be asked (its capabilities' key). */
  readonly needs: keyof ServerCapabilities;
}

/**
 * Sends one request to the child behind slot, starting it lazily: the caller's progress comes
 * back under the caller's own token, its cancellation reaches the child (notifications/cancelled),
 * and the child's own JSON-RPC error reaches the caller as it is. A child that did not declare
 * what is asked, or that cannot be started, is a clear error naming the server.
 */
export async function forwardRequest<T extends z.ZodType>(
  slot: ServerSlot,
  request: ChildRequest,
  schema: T,
  call: ReadCall,
  timeoutMs: number,
): Promise<z.infer<T>> {
  // Telemetry on: a span, and the child gets its traceparent (calls/span.ts).
  const span = telemetry() && requestSpan(slot.name, request.method, call);
  slot.callStarted();
  try {
    let conn;
    try {
      conn = slot.conn !== undefined && slot.state === 'ready' ? slot.conn : await slot.connection();
    } catch (error) {
      const text = isHubError(error) ? `${error.code}: ${error.message}` : errorMessage(error);
      throw new RpcError(ErrorCode.InternalError, `Server "${slot.name}" could not be started: ${text}`);
    }
    if (!conn.capabilities[request.needs])
      throw new RpcError(
        ErrorCode.MethodNotFound,
        `Server "${slot.name}" does not offer ${request.needs} (it did not declare them at initialize), so hub cannot forward ${request.method}.`,
      );
    const options: RequestOptions & { session?: object } = {
      signal: call.signal,
      ...(call.session !== undefined && { session: call.session }),
      timeout: timeoutMs,
      resetTimeoutOnProgress: true,
      ...(call.onProgress && { onprogress: call.onProgress }),
    };
    try {
      const params = span ? { ...request.params, _meta: span.meta(request.params._meta) } : request.params;
      const result = await conn.request({ method: request.method, params }, schema, options);
      span?.end();
      return result;
    } catch (error) {
      if (error instanceof McpError || error instanceof RpcError) throw error;
      throw new RpcError(
        ErrorCode.InternalError,
        `${request.method} could not be completed by server "${slot.name}": ${errorMessage(error)}`,
      );
    }
  } catch (error) {
    span?.end(error);
    throw error;
  } finally {
    slot.callEnded();
  }
}
