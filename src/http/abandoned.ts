// A POST whose client closed its connection: its calls cancelled in the session, as if it had said so.
import type { ServerResponse } from 'node:http';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The ids of the requests in a POST body (a single message or a batch); responses and notifications have none. */
function requestIds(body: unknown): (string | number)[] {
  const ids: (string | number)[] = [];
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message !== 'object' || message === null) continue;
    const { id, method } = message as { id?: unknown; method?: unknown };
    if (typeof method === 'string' && (typeof id === 'string' || typeof id === 'number')) ids.push(id);
  }
  return ids;
}

/** What of an HTTP session a POST's end touches (listener.ts). */
interface PostingSession {
  /** POST responses not finished yet. */
  calls: number;
  lastSeen: number;
  readonly transport: { onmessage?: ((message: JSONRPCMessage) => void) | undefined };
}

/**
 * When a POST's response closes: the session has one call fewer in progress, and if the client
 * closed the connection before its answers were written, it abandoned those requests: each one is
 * cancelled in its session as if the client had sent notifications/cancelled. Without that the
 * session's handler ran on (the SDK's transport only forgets the stream), so a proxied call
 * stayed open in a shared child until its timeout and kept counting as that session's call in
 * flight (issue 32: the next session's elicitation was then refused as ambiguous). hub keeps no
 * event store, so an answer to a closed POST could never be resumed and delivered anyway.
 */
export function postClosed(res: ServerResponse, body: unknown, session: PostingSession): void {
  const ids = requestIds(body);
  res.once('close', () => {
    session.calls -= 1;
    session.lastSeen = Date.now();
    if (res.writableFinished) return;
    for (const requestId of ids) {
      session.transport.onmessage?.({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId, reason: 'the client closed the connection' },
      });
    }
  });
}
