// A child stopped when no call used it for idleStopMs, on one timer armed on use.
import type { ServerState } from './state.js';

/** What the idle check looks at (a ServerSlot), and what it stops. */
export interface IdleTarget {
  readonly state: ServerState;
  /** Calls in flight: the child is not idle while there are any. */
  readonly active: number;
  /** An autoStart server runs for as long as hub does. */
  readonly record: { readonly autoStart: boolean };
  stopIdle(): void;
}

/**
 * Stops a child no call used for idleStopMs. One timer, armed on use only when none is pending
 * and re-armed when it fires, so a busy server costs a Date.now() per call, not a timer.
 */
export class IdleStop {
  #timer: NodeJS.Timeout | undefined;
  #lastUsed = 0;

  constructor(
    private readonly idleStopMs: number,
    private readonly target: IdleTarget,
  ) {}

  /** Marks use and makes sure an idle check is pending. */
  used(): void {
    this.#lastUsed = Date.now();
    const { target } = this;
    if (this.#timer || this.idleStopMs <= 0 || target.record.autoStart || target.state !== 'ready') return;
    this.#schedule(this.idleStopMs);
  }

  #schedule(ms: number): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.target.state !== 'ready') return;
      const idleFor = Date.now() - this.#lastUsed;
      if (this.target.active > 0 || idleFor < this.idleStopMs)
        return this.#schedule(this.target.active > 0 ? this.idleStopMs : this.idleStopMs - idleFor);
      this.target.stopIdle();
    }, ms);
    this.#timer.unref();
  }

  clear(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
