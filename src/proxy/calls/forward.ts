// One proxied call forwarded: lazy start, the caller's progress and cancel, the child's answer.
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { HubError, errorMessage, isHubError } from '../../core/errors.js';
import { telemetry } from '../../core/telemetry/telemetry.js';
import { callHistory } from './history.js';
import { callSpan } from './span.js';
import { errorResult } from '../../core/tool-result.js';
import type { Caller, RawCaller, ToolReply } from '../../wire/caller.js';
import { CallCancelledError, ChildTimeoutError } from '../../wire/fast-calls.js';
import { RpcError } from '../../wire/rpc-error.js';
import type { ServerSlot } from '../slots/server-slot.js';
import type { ServerExtra } from '../sessions/client-side.js';
import { SignInRequired } from '../oauth/required.js';
import { askToSignIn } from '../oauth/sign-in-ask.js';
import { auditCall } from './audit.js';

/** A request context tagged with the session that made the request (hub.ts tags it). */
export type SessionExtra = ServerExtra & { readonly session?: object };

/** The caller as the SDK Server sees it: its abort signal and sendNotification. */
export function sdkCaller(extra: ServerExtra): Caller {
  const token = extra._meta?.progressToken;
  return {
    meta: extra._meta,
    // What the child asks during the call (elicitation, sampling, roots) goes out related to it,
    // to the session that made it.
    requestId: extra.requestId,
    session: (extra as SessionExtra).session,
    onprogress:
      token === undefined
        ? undefined
        : progress => {
            extra
              .sendNotification({ method: 'notifications/progress', params: { ...progress, progressToken: token } })
              .catch(() => undefined);
          },
    cancellable(cancel) {
      if (extra.signal.aborted) return cancel(String(extra.signal.reason ?? 'cancelled'));
      extra.signal.addEventListener('abort', () => cancel(String(extra.signal.reason ?? 'cancelled by the client')), {
        once: true,
      });
    },
  };
}

const firstText = (result: ToolReply): string => {
  // A RawToolResult is never an error (lines that may be are parsed, see raw-result.ts).
  if (!('content' in result)) return 'the tool returned isError';
  const block = result.content?.[0];
  return block?.type === 'text' ? block.text.slice(0, 300) : 'the tool returned isError';
};

/**
 * One proxied call: lazy start, progress re-keyed to the caller's token, cancellation passed on
 * (the child gets notifications/cancelled), the child's result as it is. Hub-side failures become
 * `CODE: message` tool results; the child's own JSON-RPC errors and cancellations are thrown.
 * The caller's type decides the answer's: only a RawCaller can get the child's bytes back.
 */
export function forwardCall(
  slot: ServerSlot,
  tool: string,
  label: string,
  args: Record<string, unknown> | undefined,
  caller: RawCaller,
  timeoutMs: number,
): Promise<ToolReply>;
export function forwardCall(
  slot: ServerSlot,
  tool: string,
  label: string,
  args: Record<string, unknown> | undefined,
  caller: Caller,
  timeoutMs: number,
): Promise<CallToolResult>;
export async function forwardCall(
  slot: ServerSlot,
  tool: string,
  label: string,
  args: Record<string, unknown> | undefined,
  caller: Caller | RawCaller,
  timeoutMs: number,
): Promise<ToolReply> {
  const started = performance.now();
  // Telemetry off: one variable read. On: a span, and the child gets its traceparent (calls/span.ts).
  const span = telemetry() && callSpan(slot.name, tool, caller);
  slot.callStarted(caller.session, tool);
  try {
    const conn = slot.conn !== undefined && slot.state === 'ready' ? slot.conn : await slot.connection();
    const options = {
      onprogress: caller.onprogress,
      timeoutMs,
      meta: span ? span.meta : caller.meta,
      params: caller.params,
      relatedRequestId: caller.requestId,
      cancellable: (cancel: (reason: string) => void) => caller.cancellable(cancel),
    };
    const result = await ('raw' in caller ? conn.callToolRaw(tool, args, options) : conn.callTool(tool, args, options));
    const elapsed = performance.now() - started;
    slot.metrics.record(elapsed, result.isError === true ? firstText(result) : undefined);
    callHistory.record(slot.name, elapsed, result.isError === true);
    span?.ended(result);
    auditCall(slot.metrics.audit, { server: slot.name, tool, args, session: caller.session, ms: elapsed }, result);
    return result;
  } catch (error) {
    const elapsed = performance.now() - started;
    slot.metrics.record(elapsed, errorMessage(error).split('\n')[0]);
    callHistory.record(slot.name, elapsed, true);
    span?.failed(error);
    auditCall(
      slot.metrics.audit,
      { server: slot.name, tool, args, session: caller.session, ms: elapsed },
      undefined,
      error,
    );
    // The child's own protocol error (unknown tool, bad params) reaches the caller as it is.
    if (error instanceof RpcError || error instanceof McpError || error instanceof CallCancelledError) throw error;
    if (isHubError(error)) {
      if (error instanceof SignInRequired) askToSignIn(caller.session, error);
      return errorResult(error);
    }
    if (error instanceof ChildTimeoutError) {
      return errorResult(
        new HubError(
          'CHILD_TIMEOUT',
          `${label} did not answer within ${timeoutMs} ms (and sent no progress); the call was cancelled in server "${slot.name}". Try again, or raise callTimeoutMs in config.json (it applies after \`hub-mcp stop\`).`,
        ),
      );
    }
    return errorResult(
      new HubError(
        'CHILD_UNAVAILABLE',
        `${label} could not be completed: ${errorMessage(error)}. Server "${slot.name}" is restarted automatically; call again.`,
      ),
    );
  } finally {
    slot.callEnded(caller.session, tool);
  }
}
