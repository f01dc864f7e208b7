// Who called hub, as a forwarded call needs it: progress, session, cancel, and raw-byte callers.
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import type { RawToolResult } from './raw-result.js';

/** What a forwarded call needs from whoever called hub (the SDK request context or a fast path). */
export interface Caller {
  readonly meta: Record<string, unknown> | undefined;
  /** Set when the caller gave a progress token: notifications go back under that token. */
  readonly onprogress: ((progress: Progress) => void) | undefined;
  /** The caller's request id, when known: what a child asks in answer goes out related to it. */
  readonly requestId?: string | number | undefined;
  /** Request params passed on beside name and arguments (a 2026-07-28 retry's inputResponses and requestState). */
  readonly params?: Record<string, unknown> | undefined;
  /** The session that made the call (a shared hub's children ask that session, and only it). */
  readonly session?: object | undefined;
  /** Hands over the function that cancels the call in the child. */
  cancellable(cancel: (reason: string) => void): void;
}

/**
 * A caller that writes the answer to its session as bytes (a fast path): it takes the child's
 * result line unparsed when the line qualifies. Only calls made for a RawCaller can answer with
 * a RawToolResult, so the types show every place the child's bytes flow through.
 */
export interface RawCaller extends Caller {
  readonly raw: true;
}

/** What a call made for a RawCaller answers: the child's own bytes, or a parsed result (hub's error results, lines that had to be parsed). */
export type ToolReply = CallToolResult | RawToolResult;
