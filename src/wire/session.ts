/**
 * One client session as the byte-level lanes see it, whatever carries it: hub's stdio transport
 * today, a Streamable HTTP session later. A lane takes the incoming messages it handles before
 * the SDK Protocol does (SessionInterceptor) and writes its answers as serialized lines
 * (SessionWriter), so a second transport reuses the fast paths by providing these two.
 */

/** What a line is, as far as write timing cares (a transport may hold a response after progress). */
export type LineKind = 'progress' | 'response' | 'other';

/** Writes one serialized JSON-RPC message (newline included) to the session's client. */
export type SessionWriter = (line: string, kind: LineKind) => Promise<void>;

/** Sees each parsed incoming message before the SDK Protocol; returns true when it took it. */
export type SessionInterceptor = (message: Record<string, unknown>) => boolean;

/** A lane below the SDK: given one session's writer, the interceptor for that session's messages. */
export type SessionLane = (send: SessionWriter) => SessionInterceptor;
