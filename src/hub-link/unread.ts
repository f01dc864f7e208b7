// The lines a hub that died before its welcome never read, sent on to the next hub.
import { linesOf } from './lines.js';

// A hub that closes a connection before its welcome read none of it: it writes the welcome
// before it reads a line of the session (shared-hub/daemon.ts), and an entry reads every byte a
// hub wrote before it sees the close. Such a hub is one that died while the entry connected (its
// listening socket outlives its sessions' by a moment, so a SIGKILLed hub's backlog takes the
// connection) or one closing idle. What the entry sent it goes to the next hub, not failed.

/** The client's lines in parts, but those of skipped requests (sent again anyway), and the keys of their requests. */
export function unreadLines(
  parts: readonly Buffer[],
  skip: ReadonlyMap<string, unknown>,
): {
  lines: Buffer[];
  keys: Set<string>;
} {
  const lines: Buffer[] = [];
  const keys = new Set<string>();
  for (const part of parts)
    for (const line of linesOf(part)) {
      let id: unknown;
      try {
        const message = JSON.parse(line) as { id?: unknown; method?: unknown } | null;
        if (message !== null && typeof message === 'object' && typeof message.method === 'string') id = message.id;
      } catch {
        // not JSON: the next hub answers it as the first would have
      }
      const key = typeof id === 'string' || typeof id === 'number' ? JSON.stringify(id) : undefined;
      if (key !== undefined && skip.has(key)) continue;
      if (key !== undefined) keys.add(key);
      lines.push(Buffer.from(`${line}\n`));
    }
  return { lines, keys };
}
