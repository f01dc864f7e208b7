// A child's question put to a 2026-07-28 client as input_required, and the rounds until answered.
import { randomUUID } from 'node:crypto';

type Json = Record<string, unknown>;
type Id = string | number;

// hub's own requestState: a lookup key into this session's rounds (the state itself stays here,
// so there is nothing to sign). A modern child's requestState never starts so, and passes by.
const STATE_PREFIX = 'hub-input:';
// Calls waiting on the person at once, per session; a question unanswered this long is given up.
const MAX_ROUNDS = 64;
const DEFAULT_WAIT_MS = 10 * 60_000;

export class InputRoundError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The requests a 2026-07-28 server may answer input_required (the spec names these three). */
export const INPUT_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

interface Call {
  readonly method: string;
  capabilities: Json;
}

interface Round {
  /** The client's first id for the call: the child's answer comes back under it. */
  readonly call: Id;
  readonly method: string;
  /** The id the client waits on now (its latest retry), or undefined while a question is open. */
  waiting: Id | undefined;
  token?: string | undefined;
  answer?: { resolve(value: Json): void; reject(error: Error): void } | undefined;
  /** The child's answer, come while the client had no id waiting. */
  held?: Json | undefined;
  /** The client stopped answering: what the child sends for this call goes nowhere. */
  abandoned?: boolean;
  timer?: NodeJS.Timeout | undefined;
}

/**
 * A child asking the person mid-request (elicitation, sampling, roots) for a 2026-07-28 client,
 * which takes no requests from servers: a 2025 child's request during a tools/call, or a
 * 2026-07-28 child's input_required on a prompts/get or resources/read that hub plays out. The
 * client's request is answered `input_required` with the question, the client retries with
 * `inputResponses` and hub's `requestState`, the answer goes to the child, and the child's result
 * goes out under the retry's id (another question: another round). The modern lane
 * (modern-lane.ts) feeds it the client's requests and retries and passes every response through
 * `outgoing`; the proxy asks through `ask`.
 */
export class InputRounds {
  // Modern calls that may need input, in flight (by first id), with the capabilities their envelope named.
  #calls = new Map<Id, Call>();
  #rounds = new Map<Id, Round>();
  #byToken = new Map<string, Round>();
  #byRetry = new Map<Id, Round>();
  #send: ((message: Json) => Promise<void>) | undefined;

  attach(send: (message: Json) => Promise<void>): void {
    this.#send = send;
  }

  /** True while any call may have its answer rewritten (the transport then parses fast-path lines). */
  get active(): boolean {
    return this.#rounds.size > 0;
  }

  callStarted(id: Id, method: string, capabilities: Json): void {
    if (this.#calls.size < MAX_ROUNDS * 16) this.#calls.set(id, { method, capabilities });
  }

  /** What the modern calls in flight say the client can answer (elicitation, sampling, roots). */
  capabilities(): Json | undefined {
    if (this.#calls.size === 0) return undefined;
    let merged: Json = {};
    for (const call of this.#calls.values()) merged = { ...merged, ...call.capabilities };
    return merged;
  }

  /** The method of the call whose first id this is, while it has a round. */
  methodOf(id: Id): string | undefined {
    return this.#rounds.get(id)?.method;
  }

  /** The child's request, put to the client as input_required on the call it belongs to. */
  ask(
    request: { method: string; params: unknown },
    options: { signal?: AbortSignal; timeout?: number },
  ): Promise<Json> {
    const call = this.#soleCall();
    const round = this.#rounds.get(call) ?? { call, method: this.#calls.get(call)!.method, waiting: call };
    if (round.answer || round.waiting === undefined)
      throw new InputRoundError(-32600, 'the server asked a second question before the first was answered; refused.');
    if (!this.#rounds.has(call) && this.#rounds.size >= MAX_ROUNDS)
      throw new InputRoundError(-32603, `at most ${MAX_ROUNDS} calls may wait on the person at once.`);
    this.#rounds.set(call, round);
    const token = `${STATE_PREFIX}${randomUUID()}`;
    round.token = token;
    this.#byToken.set(token, round);
    const answered = new Promise<Json>((resolve, reject) => (round.answer = { resolve, reject }));
    const timeout = options.timeout ?? DEFAULT_WAIT_MS;
    round.timer = setTimeout(() => this.#abandon(round, `no answer within ${timeout} ms`), timeout);
    round.timer.unref();
    options.signal?.addEventListener('abort', () => this.#abandon(round, 'the server gave up waiting'), { once: true });
    const id = round.waiting;
    round.waiting = undefined;
    const result = { resultType: 'input_required', inputRequests: { '1': request }, requestState: token };
    void this.#send?.({ jsonrpc: '2.0', id, result }).catch(() => undefined);
    return answered;
  }

  /**
   * A modern tools/call that may be the retry of a call hub asked a question for: 'taken' (it is,
   * and it was handled), 'unknown' (hub's requestState, but no such round: hub restarted or the
   * call ended), or undefined (not hub's: the call goes on as any other).
   */
  retry(id: Id, method: string, params: Json, capabilities: Json): 'taken' | 'unknown' | undefined {
    const token = params.requestState;
    if (typeof token !== 'string' || !token.startsWith(STATE_PREFIX)) return undefined;
    const round = this.#byToken.get(token);
    if (!round || !round.answer || round.method !== method) return 'unknown';
    this.#byToken.delete(token);
    round.token = undefined;
    clearTimeout(round.timer);
    round.waiting = id;
    this.#byRetry.set(id, round);
    this.#calls.set(round.call, { method, capabilities });
    const { resolve, reject } = round.answer;
    round.answer = undefined;
    const response = (params.inputResponses as Json | undefined)?.['1'];
    if (response !== null && typeof response === 'object') resolve(response as Json);
    else reject(new InputRoundError(-32602, 'the client retried without inputResponses["1"]'));
    if (round.held) {
      const held = round.held;
      round.held = undefined;
      void this.#send?.({ ...held, id: round.call }).catch(() => undefined);
    }
    return 'taken';
  }

  /** A response on its way to the client: as it is, under the retry's id, or undefined (held or dropped). */
  outgoing(message: Json): Json | undefined {
    const id = message.id as Id;
    const round = this.#rounds.get(id);
    if (!round) {
      this.#calls.delete(id);
      return message;
    }
    const result = message.result as Json | undefined;
    // hub's own question on its way: it passes.
    if (result?.resultType === 'input_required' && result.requestState === round.token) return message;
    if (round.abandoned) return void this.#end(round);
    if (round.waiting === undefined) {
      round.held = message;
      return undefined;
    }
    const waiting = round.waiting;
    this.#end(round);
    return { ...message, id: waiting };
  }

  /** notifications/cancelled for a retry's id: the call's first id (the one the child knows). */
  cancelled(requestId: Id): Id | undefined {
    const round = this.#byRetry.get(requestId);
    if (!round) {
      this.#calls.delete(requestId);
      return undefined;
    }
    round.abandoned = true;
    return round.call;
  }

  // The one modern call in flight: a 2025 child's request names no call, so with two there is no telling.
  #soleCall(): Id {
    if (this.#calls.size === 1) return this.#calls.keys().next().value as Id;
    throw new InputRoundError(
      -32600,
      this.#calls.size === 0
        ? 'no call of this client is in progress to ask for.'
        : `${this.#calls.size} calls of this client are in progress, and the server's question names none of them; refused.`,
    );
  }

  #abandon(round: Round, why: string): void {
    if (!round.answer) return;
    round.answer.reject(new InputRoundError(-32603, `the client did not answer: ${why}.`));
    round.answer = undefined;
    round.abandoned = true;
    if (round.token) this.#byToken.delete(round.token);
    clearTimeout(round.timer);
  }

  #end(round: Round): void {
    clearTimeout(round.timer);
    if (round.token) this.#byToken.delete(round.token);
    for (const [retry, owner] of this.#byRetry) if (owner === round) this.#byRetry.delete(retry);
    this.#rounds.delete(round.call);
    this.#calls.delete(round.call);
  }
}
