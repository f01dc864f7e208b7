// A forwarded request's OpenTelemetry span, and the traceparent the child gets under it.
import { errorType, telemetry, type OpenSpan } from '../../core/telemetry/telemetry.js';
import type { Caller, ToolReply } from '../../wire/caller.js';
import { CallCancelledError, ChildTimeoutError } from '../../wire/fast-calls.js';

/** One proxied call's span (only made when telemetry is on, see forward.ts). */
export interface CallSpan {
  /** The caller's _meta with traceparent set to hub's span: what the child gets. */
  readonly meta: Record<string, unknown>;
  ended(result: ToolReply): void;
  failed(error: unknown): void;
}

// W3C trace context goes on to the child as hub's span: the child's spans hang under hub's,
// which hangs under the client's (docs/telemetry.md). The caller's tracestate goes on as it is.
export function callSpan(server: string, tool: string, caller: Caller): CallSpan | undefined {
  const tracer = telemetry();
  if (tracer === undefined) return undefined;
  const span: OpenSpan = tracer.startCall({ server, tool, meta: caller.meta, session: caller.session });
  return {
    meta: { ...caller.meta, traceparent: span.traceparent },
    ended: result =>
      span.end(result.isError === true ? { outcome: 'tool_error', errorType: 'tool_error' } : { outcome: 'ok' }),
    failed(error) {
      if (error instanceof CallCancelledError) span.end({ outcome: 'cancelled' });
      else if (error instanceof ChildTimeoutError) span.end({ outcome: 'timeout', errorType: 'CHILD_TIMEOUT' });
      else span.end({ outcome: 'error', errorType: errorType(error) });
    },
  };
}

/** A span for a request forwarded to a child other than tools/call (surface/forward.ts). */
export function requestSpan(
  server: string,
  method: string,
  call: { readonly meta?: Record<string, unknown> | undefined; readonly session?: object | undefined },
): { meta(given: unknown): Record<string, unknown>; end(error?: unknown): void } | undefined {
  const tracer = telemetry();
  if (tracer === undefined) return undefined;
  const span = tracer.startCall({ server, tool: '', method, meta: call.meta, session: call.session });
  let ended = false;
  return {
    meta: given => ({ ...(given !== null && typeof given === 'object' ? given : {}), traceparent: span.traceparent }),
    end(error) {
      if (ended) return;
      ended = true;
      span.end(error === undefined ? { outcome: 'ok' } : { outcome: 'error', errorType: errorType(error) });
    },
  };
}
