// The calls forwarded to one slot that have not ended: how many (idle stop waits for none), whose
// (a child's request to the person goes to the one session with a call in flight) and of which
// tools (a need is learned only while one tool is in flight).
import type { RelaySource } from '../sessions/client-side.js';
import { ToolsInFlight } from '../listing/tool-needs.js';

export class CallsInFlight {
  #count = 0;
  // Per session (Caller.session), the calls in flight.
  readonly #callers = new Map<object, number>();
  readonly tools = new ToolsInFlight();
  #starter: object | undefined;

  get count(): number {
    return this.#count;
  }

  /** A call started; `connected` says whether the child already runs (else this session starts it). */
  started(session: object | undefined, tool: string | undefined, connected: boolean): void {
    this.#count += 1;
    if (tool !== undefined) this.tools.started(tool);
    if (session === undefined) return;
    this.#callers.set(session, (this.#callers.get(session) ?? 0) + 1);
    // The session whose call starts the child is the one its unsolicited requests go to.
    if (!connected) this.#starter = session;
  }

  /** A call ended: true when none is left. */
  ended(session: object | undefined, tool: string | undefined): boolean {
    this.#count -= 1;
    if (tool !== undefined) this.tools.ended(tool);
    if (session !== undefined) {
      const left = (this.#callers.get(session) ?? 1) - 1;
      if (left > 0) this.#callers.set(session, left);
      else this.#callers.delete(session);
    }
    return this.#count === 0;
  }

  /** What a relayed request of this child names (client-sessions.ts routes by it). */
  relaySource(name: () => string): RelaySource {
    const callers = this.#callers;
    const starter = () => this.#starter;
    return {
      get server() {
        return name();
      },
      callers,
      get starter() {
        return starter();
      },
    };
  }
}
