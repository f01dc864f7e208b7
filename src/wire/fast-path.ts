// Proxied tools/call taken below the SDK for any session, the child's result bytes sent back as-is.
import type { RawCaller, ToolReply } from './caller.js';
import { RawToolResult } from './raw-result.js';
import { rpcErrorMember } from './rpc-error.js';
import type { LineKind, SessionInterceptor, SessionWriter } from './session.js';

type JsonRpcId = string | number;

/** Resolves an exposed name to a forwarder that takes a RawCaller (the proxy provides it). */
export type FastForwarder = (args: Record<string, unknown> | undefined, caller: RawCaller) => Promise<ToolReply>;

/**
 * tools/call for proxied tools handled below the SDK Protocol, for one session of any transport:
 * the request is JSON.parse'd once by the transport, forwarded with the child's fast lane, and
 * the child's result written back as it is (usually its very bytes with the caller's id spliced
 * in, see raw-result.ts). Progress goes out under the caller's token; notifications/cancelled for
 * one of these ids cancels it in the child (and, as the spec says, no answer is sent). Anything
 * else, and any request whose shape is off, is left to the SDK Server, which answers it (or its
 * error) in full.
 */
// A 2026-07-28 client's retry of a call that needed input: its answers go to the child with it.
function retryParams(params: Record<string, unknown>): Record<string, unknown> | undefined {
  if (params.inputResponses === undefined && params.requestState === undefined) return undefined;
  return {
    ...(params.inputResponses !== undefined && { inputResponses: params.inputResponses }),
    ...(params.requestState !== undefined && { requestState: params.requestState }),
  };
}

export function createFastPath(
  resolve: (name: string) => FastForwarder | undefined,
  send: SessionWriter,
  /** The session these calls come from (Caller.session). */
  session?: object,
): SessionInterceptor {
  const inFlight = new Map<JsonRpcId, (reason: string) => void>();
  // The transport holds a response that follows a progress line (an SDK client quirk).
  const sendLine = (line: string, kind: LineKind) => {
    send(line, kind).catch(() => undefined);
  };
  const sendJson = (payload: unknown, kind: LineKind) => sendLine(`${JSON.stringify(payload)}\n`, kind);

  const handle = (id: JsonRpcId, forward: FastForwarder, params: Record<string, unknown>) => {
    const given = params._meta;
    const meta = given !== null && typeof given === 'object' ? (given as Record<string, unknown>) : {};
    const token = meta.progressToken;
    let cancelled = false;
    // A cancel that arrives before the call reaches the child (it is still starting) is kept here
    // and applied as soon as the call is handed its cancel: the child never gets the call.
    let early: string | undefined;
    inFlight.set(id, reason => {
      cancelled = true;
      early = reason;
    });
    const caller: RawCaller = {
      raw: true,
      meta,
      session,
      requestId: id,
      params: retryParams(params),
      onprogress:
        typeof token === 'string' || typeof token === 'number'
          ? progress =>
              sendJson(
                { jsonrpc: '2.0', method: 'notifications/progress', params: { ...progress, progressToken: token } },
                'progress',
              )
          : undefined,
      cancellable(cancel) {
        if (early !== undefined) return cancel(early);
        inFlight.set(id, reason => {
          cancelled = true;
          cancel(reason);
        });
      },
    };
    forward(params.arguments as Record<string, unknown> | undefined, caller).then(
      result => {
        inFlight.delete(id);
        if (cancelled) return;
        const line =
          result instanceof RawToolResult
            ? result.lineFor(JSON.stringify(id))
            : `${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`;
        sendLine(line, 'response');
      },
      (error: unknown) => {
        inFlight.delete(id);
        if (cancelled) return;
        sendJson({ jsonrpc: '2.0', id, error: rpcErrorMember(error) }, 'response');
      },
    );
  };

  return message => {
    const method = message.method;
    if (method === 'tools/call') {
      const id = message.id;
      const params = message.params as Record<string, unknown> | undefined;
      if ((typeof id !== 'string' && typeof id !== 'number') || !params || typeof params.name !== 'string')
        return false;
      const args = params.arguments;
      if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) return false;
      // Task-augmented calls need the SDK's task machinery.
      if (params.task !== undefined) return false;
      const forward = resolve(params.name);
      if (!forward) return false;
      handle(id, forward, params);
      return true;
    }
    if (method === 'notifications/cancelled') {
      const requestId = (message.params as { requestId?: JsonRpcId; reason?: unknown } | undefined)?.requestId;
      const cancel = requestId === undefined ? undefined : inFlight.get(requestId);
      if (!cancel) return false;
      inFlight.delete(requestId as JsonRpcId);
      cancel(String((message.params as { reason?: unknown }).reason ?? 'cancelled by the client'));
      return true;
    }
    return false;
  };
}
