/** Crash-loop policy numbers (SPEC "Proxied servers"); tests shrink them, the defaults are the real ones. */
export interface BackoffPolicy {
  /** First restart delay. */
  readonly baseMs: number;
  readonly capMs: number;
  /** Fraction of the delay added or removed at random, so restarts of many servers spread out. */
  readonly jitter: number;
  /** A run this long counts as stable and clears the crash history. */
  readonly stableMs: number;
  /** This many unstable exits within windowMs → failed. */
  readonly maxUnstableExits: number;
  readonly windowMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = {
  baseMs: 500,
  capMs: 30_000,
  jitter: 0.2,
  stableMs: 60_000,
  maxUnstableExits: 5,
  windowMs: 60_000,
};

/** Delay before restart number `attempt` (1-based): base doubling to the cap, ± jitter. */
export function backoffDelay(policy: BackoffPolicy, attempt: number, random: () => number = Math.random): number {
  const raw = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  const spread = raw * policy.jitter * (random() * 2 - 1);
  return Math.max(0, Math.round(Math.min(policy.capMs, raw + spread)));
}

/** What to do after an unexpected exit, given when it started and earlier unstable exits. */
export type ExitVerdict = { action: 'restart'; delayMs: number; attempt: number } | { action: 'fail' };

/** Tracks unstable exits of one server; a stable run forgets them. */
export class CrashHistory {
  #exits: number[] = [];

  constructor(private readonly policy: BackoffPolicy) {}

  get unstableExits(): number {
    return this.#exits.length;
  }

  /** Record an exit of a run that began at startedAt (ms) and decide. */
  onExit(startedAt: number, now: number, random?: () => number): ExitVerdict {
    if (now - startedAt >= this.policy.stableMs) this.#exits = [];
    this.#exits = this.#exits.filter(at => now - at < this.policy.windowMs);
    this.#exits.push(now);
    if (this.#exits.length >= this.policy.maxUnstableExits) return { action: 'fail' };
    const attempt = this.#exits.length;
    return { action: 'restart', delayMs: backoffDelay(this.policy, attempt, random), attempt };
  }

  reset(): void {
    this.#exits = [];
  }
}
