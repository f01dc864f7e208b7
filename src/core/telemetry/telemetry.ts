// The seam between hub and OpenTelemetry: span and metric hooks that cost nothing when unset.
import { AsyncLocalStorage } from 'node:async_hooks';

// The seam between hub and OpenTelemetry (docs/telemetry.md). Zero dependencies: with no OTEL_*
// variable set nothing else is ever loaded, and each hook below costs one variable read.
// core/telemetry/otel-sdk.ts, imported by core/telemetry/start.ts only when configured, fills it in.

/** How a traced piece of work ended. */
export interface SpanEnd {
  /** ok, tool_error (the tool answered isError), error, cancelled or timeout. */
  readonly outcome: 'ok' | 'tool_error' | 'error' | 'cancelled' | 'timeout';
  /** A short error kind (an error code or class name), never arguments or results. */
  readonly errorType?: string;
}

/** One span hub opened. */
export interface OpenSpan {
  /** The W3C traceparent of this span, for the child request's _meta. */
  readonly traceparent: string;
  end(how: SpanEnd): void;
}

/** What one proxied or own tool call is, as a span and in the metrics. */
export interface CallDescription {
  /** The child server ('hub' for hub's own tools). */
  readonly server: string;
  /** The tool's own name (as its server lists it); '' for a request that is not tools/call. */
  readonly tool: string;
  /** The MCP method, when not tools/call (prompts/get, resources/read, completion/complete …). */
  readonly method?: string;
  /** The caller's _meta: traceparent and tracestate are read from it. */
  readonly meta: Record<string, unknown> | undefined;
  readonly session?: object | undefined;
}

export interface Telemetry {
  /** A `tools/call` span, child of the caller's traceparent (or of the hub span it runs in). */
  startCall(call: CallDescription): OpenSpan;
  /** An install or process span, child of the tool call it runs in, if any. */
  startSpan(name: string, attributes: Readonly<Record<string, string | number>>): OpenSpan;
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

let current: Telemetry | undefined;
// The hub span a tool call runs in, so an install or a process start made by it is its child.
// Made on first use: with telemetry off, no async context is ever tracked.
let within: AsyncLocalStorage<OpenSpan> | undefined;
const sessionIds = new WeakMap<object, string>();

/** The configured telemetry, or undefined (nothing configured, or not loaded yet). */
export const telemetry = (): Telemetry | undefined => current;

export function setTelemetry(next: Telemetry | undefined): void {
  current = next;
}

/** The hub span of the work running now (set by runInSpan). */
export const activeSpan = (): OpenSpan | undefined => within?.getStore();

/** Runs work inside a span, so the spans it opens are its children. */
export const runInSpan = <T>(span: OpenSpan, work: () => T): T => (within ??= new AsyncLocalStorage()).run(span, work);

/** The session's id as `hub status` and the dashboard show it (s1, s2, …), for span attributes. */
export function nameSession(session: object, id: string): void {
  sessionIds.set(session, id);
}

export const sessionId = (session: object | undefined): string | undefined =>
  session === undefined ? undefined : sessionIds.get(session);

/**
 * Traces one piece of work (an install, a process action) when telemetry is on; otherwise just
 * runs it. A failure is recorded with its code and thrown on unchanged.
 */
export async function traced<T>(
  name: string,
  attributes: Readonly<Record<string, string | number>>,
  work: () => Promise<T>,
): Promise<T> {
  const tracer = current;
  if (tracer === undefined) return work();
  const span = tracer.startSpan(name, attributes);
  try {
    const result = await runInSpan(span, work);
    span.end({ outcome: 'ok' });
    return result;
  } catch (error) {
    span.end({ outcome: 'error', errorType: errorType(error) });
    throw error;
  }
}

/** A short kind for an error: its hub code, or its class name (never its message). */
export function errorType(error: unknown): string {
  if (error !== null && typeof error === 'object') {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' || typeof code === 'number') return String(code);
    const name = (error as { name?: unknown }).name;
    if (typeof name === 'string') return name;
  }
  return 'Error';
}

/** Traces one of hub's own tool calls when telemetry is on: what it does inside is its child. */
export async function tracedCall<T extends { isError?: unknown }>(
  call: CallDescription,
  work: () => Promise<T>,
): Promise<T> {
  const tracer = current;
  if (tracer === undefined) return work();
  const span = tracer.startCall(call);
  try {
    const result = await runInSpan(span, work);
    span.end(result.isError === true ? { outcome: 'tool_error', errorType: 'tool_error' } : { outcome: 'ok' });
    return result;
  } catch (error) {
    span.end({ outcome: 'error', errorType: errorType(error) });
    throw error;
  }
}
