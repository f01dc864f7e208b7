// hub's stdio server transport: SDK framing without zod per line, and the session lanes hook in.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { answerableId, invalidParamsFromSdk, invalidRequestReason } from './invalid-request.js';
import { JsonLineReader } from './json-lines.js';
import type { EraHooks } from './modern-lane.js';
import type { LineKind, SessionInterceptor } from './session.js';

// Kept for the importers written before session.ts (proxy/types.ts, manager-types.ts, hub.ts).
export type { LineKind } from './session.js';

/** What an earlier reader of stdin (the cold-start lane) read and answered before this transport existed. */
export interface StdinReplay {
  /** Every byte read from stdin so far, fed to this transport first. */
  readonly replay: Buffer;
  /** Requests already answered: this transport's responses to them are not sent again. */
  readonly answered: Set<string | number>;
}

// How long a response waits after a progress line (see sendRaw).
const PROGRESS_GAP_MS = 15;

/**
 * hub's stdio server transport: the SDK's framing without its per-line zod pass, and one user of
 * the session interface (session.ts): `intercept` lets a lane such as the fast path (fast-path.ts)
 * take proxied tools/call before the SDK Protocol, and `sendRaw` is that lane's SessionWriter.
 * Everything it does not intercept goes to the SDK Server.
 */
export class HubStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Return true to consume a message (the proxy fast path). */
  intercept?: SessionInterceptor;
  /** The 2026-07-28 lane (modern-lane.ts): server/discover, per-request era, modern result fields. */
  era?: EraHooks;

  #started = false;
  #lastProgressAt = 0;
  #answered: Set<string | number> | undefined;
  #replay: Buffer | undefined;
  #reader: JsonLineReader;
  #onData = (chunk: Buffer) => this.#reader.push(chunk);
  #onError = (error: Error) => this.onerror?.(error);

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    handOff?: StdinReplay,
  ) {
    this.#replay = handOff?.replay;
    if (handOff && handOff.answered.size > 0) this.#answered = handOff.answered;
    this.#reader = new JsonLineReader(
      message => {
        if ('method' in message && this.#refuseInvalid(message)) return;
        if (this.era?.intercept(message)) return;
        if (!this.intercept?.(message)) this.onmessage?.(message as JSONRPCMessage);
      },
      error => this.onerror?.(error),
    );
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('HubStdioServerTransport already started');
    this.#started = true;
    const replay = this.#replay;
    this.#replay = undefined;
    if (replay && replay.length > 0) this.#reader.push(replay);
    this.stdin.on('data', this.#onData);
    this.stdin.on('error', this.#onError);
    // The cold-start lane paused stdin at hand-off; a plain stdin is resumed by the listener.
    this.stdin.resume();
  }

  /** Answers a malformed request with -32600 (the SDK would drop it and the client would wait). */
  #refuseInvalid(message: Record<string, unknown>): boolean {
    const id = answerableId(message);
    if (id === undefined) return false;
    const reason = invalidRequestReason(message);
    if (reason === undefined) return false;
    const error = { code: -32600, message: `Invalid Request: ${reason}` };
    void this.sendRaw(`${JSON.stringify({ jsonrpc: '2.0', id, error })}\n`, 'response');
    return true;
  }

  send(message: JSONRPCMessage): Promise<void> {
    // First, so a modern request answered by the cold-start lane is not left pending.
    if (this.era) {
      const routed = this.era.outgoing(message as unknown as Record<string, unknown>);
      // Held for a retry that has not come yet (input-rounds.ts): sent later under its id.
      if (routed === undefined) return Promise.resolve();
      message = routed as unknown as JSONRPCMessage;
    }
    // Already answered by the cold-start lane: the replayed request's response is not sent twice.
    if (
      this.#answered &&
      'id' in message &&
      !('method' in message) &&
      this.#answered.delete(message.id as string | number)
    ) {
      if (this.#answered.size === 0) this.#answered = undefined;
      return Promise.resolve();
    }
    if ('error' in message) {
      const rewritten = invalidParamsFromSdk(message.error);
      if (rewritten) message = { ...message, error: rewritten };
    }
    const kind =
      'method' in message ? (message.method === 'notifications/progress' ? 'progress' : 'other') : 'response';
    return this.#emit(`${JSON.stringify(message)}\n`, kind);
  }

  /**
   * Writes one serialized JSON-RPC line, one write per message as the SDK does: coalescing a
   * progress notification with the response after it makes the SDK client drop that progress
   * (it handles notifications a microtask after responses read in the same chunk). Joining the
   * responses of one tick into one write (progress excluded) was measured with 16 calls in
   * flight: no throughput gain on a 2-core machine (the client and child are the bottleneck).
   */
  sendRaw(line: string, kind: LineKind = 'other'): Promise<void> {
    // A fast-path answer to a modern request gets the modern fields (parsed only then).
    if (kind === 'response' && this.era?.pending()) {
      const message = JSON.parse(line) as Record<string, unknown>;
      const modern = this.era.outgoing(message);
      if (modern === undefined) return Promise.resolve();
      if (modern !== message) line = `${JSON.stringify(modern)}\n`;
    }
    return this.#emit(line, kind);
  }

  #emit(line: string, kind: LineKind): Promise<void> {
    if (kind === 'progress') this.#lastProgressAt = performance.now();
    else if (kind === 'response' && this.#lastProgressAt !== 0) {
      // The SDK client handles a notification a microtask after a response read in the same
      // chunk, so a response written right after a progress would make it drop that progress.
      const wait = PROGRESS_GAP_MS - (performance.now() - this.#lastProgressAt);
      if (wait > 0) return new Promise(resolve => setTimeout(resolve, wait)).then(() => this.#write(line));
    }
    return this.#write(line);
  }

  #write(line: string): Promise<void> {
    if (this.stdout.write(line)) return Promise.resolve();
    return new Promise(resolve => this.stdout.once('drain', resolve));
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.#onData);
    this.stdin.off('error', this.#onError);
    // Like the SDK's transport: stop reading so the process can exit.
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.#reader.clear();
    this.onclose?.();
  }
}
