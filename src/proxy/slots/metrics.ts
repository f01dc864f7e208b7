// Per-server call metrics in memory, published with the slot's state for other hubs and the CLI.
import type { ServerState } from './state.js';
import { writeSharedState } from '../../store/shared-state.js';
import type { AuditLog } from '../../store/audit/log.js';

const RESERVOIR_SIZE = 512;
// Calls are published at most this often; a state change is published at once.
const PUBLISH_EVERY_MS = 1_000;

/**
 * Per-server call metrics, in memory on the call path (never a store write there). With
 * shareTo(dir), they and the slot's state are also published to HUB_HOME/state/<server>/ so
 * `hub servers` and other hubs see the same truth.
 */
export class CallMetrics {
  calls = 0;
  errors = 0;
  #restarts = 0;
  lastError: string | undefined;
  #totalMs = 0;
  // The latest RESERVOIR_SIZE latencies, for p50 and p95.
  #recent = new Float64Array(RESERVOIR_SIZE);
  #next = 0;
  #state: ServerState = 'stopped';
  #shareDir: string | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** Where this server's calls are recorded (proxy/calls/audit.ts), when the hub keeps an audit log. */
  audit: AuditLog | undefined;

  record(ms: number, error?: string): void {
    this.calls += 1;
    this.#totalMs += ms;
    this.#recent[this.#next % RESERVOIR_SIZE] = ms;
    this.#next += 1;
    if (error !== undefined) {
      this.errors += 1;
      this.lastError = error;
    }
    if (this.#shareDir !== undefined && this.#timer === undefined) {
      this.#timer = setTimeout(() => this.publish(), PUBLISH_EVERY_MS);
      this.#timer.unref();
    }
  }

  get restarts(): number {
    return this.#restarts;
  }

  set restarts(count: number) {
    this.#restarts = count;
    this.publish();
  }

  get meanMs(): number | null {
    return this.calls === 0 ? null : round(this.#totalMs / this.calls);
  }

  get p95Ms(): number | null {
    return this.#percentile(0.95);
  }

  /** The median of the latest calls (the dashboard shows it beside p95). */
  get p50Ms(): number | null {
    return this.#percentile(0.5);
  }

  #percentile(rank: number): number | null {
    const count = Math.min(this.#next, RESERVOIR_SIZE);
    if (count === 0) return null;
    const sorted = this.#recent.slice(0, count).sort();
    return round(sorted[Math.min(count - 1, Math.ceil(count * rank) - 1)] ?? 0);
  }

  /** Publish to this folder (HUB_HOME/state/<server>) from now on. */
  shareTo(dir: string): void {
    this.#shareDir = dir;
  }

  /** The slot's state changed: published at once, so a reader never sees "ready" for a dead child. */
  stateChanged(state: ServerState): void {
    if (state === this.#state) return;
    this.#state = state;
    this.publish();
  }

  publish(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#shareDir === undefined) return;
    writeSharedState(this.#shareDir, {
      pid: process.pid,
      state: this.#state,
      calls: this.calls,
      errors: this.errors,
      meanMs: this.meanMs,
      p95Ms: this.p95Ms,
      p50Ms: this.p50Ms,
      restarts: this.#restarts,
      ...(this.lastError !== undefined && { lastError: this.lastError }),
      updatedAt: new Date().toISOString(),
    });
  }
}

const round = (ms: number): number => Math.round(ms * 100) / 100;
