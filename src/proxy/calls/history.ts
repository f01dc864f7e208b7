// The last hour of proxied calls per server, in per-minute buckets, for the dashboard's charts
// (docs/telemetry.md). Fed by the same call hook as the call metrics (forward.ts), in memory,
// whether or not OpenTelemetry is configured. Latencies go into a fixed log-scale histogram per
// minute, so p50 and p95 cost no sort and the memory is bounded: 60 minutes × BINS per server.

const MINUTE_MS = 60_000;
const MINUTES = 60;
// Bin i holds latencies up to 2^(i/2) × 0.1 ms (bins grow by √2: about ±20 % error on a
// percentile); the last bin takes everything longer (~ 16 min).
const BINS = 48;
const BIN_BASE_MS = 0.1;

class Minute {
  calls = 0;
  errors = 0;
  readonly bins = new Uint32Array(BINS);
  constructor(readonly start: number) {}
}

/** One minute of one server's calls, as the dashboard draws it. */
export interface MinutePoint {
  /** The minute's start (ms since the epoch). */
  readonly t: number;
  readonly calls: number;
  readonly errors: number;
  readonly p50Ms: number | null;
  readonly p95Ms: number | null;
}

const binOf = (ms: number): number =>
  ms <= BIN_BASE_MS ? 0 : Math.min(BINS - 1, Math.ceil(2 * Math.log2(ms / BIN_BASE_MS)));
const binTop = (bin: number): number => Math.round(BIN_BASE_MS * 2 ** (bin / 2) * 100) / 100;

function percentile(minute: Minute, rank: number): number | null {
  if (minute.calls === 0) return null;
  const wanted = Math.ceil(minute.calls * rank);
  let seen = 0;
  for (let bin = 0; bin < BINS; bin++) {
    seen += minute.bins[bin]!;
    if (seen >= wanted) return binTop(bin);
  }
  return binTop(BINS - 1);
}

export class CallHistory {
  readonly #servers = new Map<string, Minute[]>();
  constructor(private readonly now: () => number = Date.now) {}

  record(server: string, ms: number, failed: boolean): void {
    const start = Math.floor(this.now() / MINUTE_MS) * MINUTE_MS;
    let minutes = this.#servers.get(server);
    if (minutes === undefined) this.#servers.set(server, (minutes = []));
    let minute = minutes.at(-1);
    if (minute === undefined || minute.start !== start) {
      minutes.push((minute = new Minute(start)));
      if (minutes.length > MINUTES) minutes.shift();
    }
    minute.calls += 1;
    if (failed) minute.errors += 1;
    minute.bins[binOf(ms)]! += 1;
  }

  /** Every server's minutes within the last hour, oldest first (minutes without calls left out). */
  lastHour(): Record<string, MinutePoint[]> {
    const since = this.now() - MINUTES * MINUTE_MS;
    const out: Record<string, MinutePoint[]> = {};
    for (const [server, minutes] of this.#servers) {
      const recent = minutes.filter(minute => minute.start > since);
      if (recent.length === 0) continue;
      out[server] = recent.map(minute => ({
        t: minute.start,
        calls: minute.calls,
        errors: minute.errors,
        p50Ms: percentile(minute, 0.5),
        p95Ms: percentile(minute, 0.95),
      }));
    }
    return out;
  }

  forget(server: string): void {
    this.#servers.delete(server);
  }
}

/** This process's history: every hub core in it feeds it, the dashboard it serves reads it. */
export const callHistory = new CallHistory();
