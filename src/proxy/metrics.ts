const RESERVOIR_SIZE = 512;

/** Per-server call metrics, in memory only (never a store write on the call path). */
export class CallMetrics {
  calls = 0;
  errors = 0;
  restarts = 0;
  lastError: string | undefined;
  #totalMs = 0;
  // The latest RESERVOIR_SIZE latencies, for p95.
  #recent = new Float64Array(RESERVOIR_SIZE);
  #next = 0;

  record(ms: number, error?: string): void {
    this.calls += 1;
    this.#totalMs += ms;
    this.#recent[this.#next % RESERVOIR_SIZE] = ms;
    this.#next += 1;
    if (error !== undefined) {
      this.errors += 1;
      this.lastError = error;
    }
  }

  get meanMs(): number | null {
    return this.calls === 0 ? null : round(this.#totalMs / this.calls);
  }

  get p95Ms(): number | null {
    const count = Math.min(this.#next, RESERVOIR_SIZE);
    if (count === 0) return null;
    const sorted = this.#recent.slice(0, count).sort();
    return round(sorted[Math.min(count - 1, Math.ceil(count * 0.95) - 1)] ?? 0);
  }
}

const round = (ms: number): number => Math.round(ms * 100) / 100;
