/** Crash-loop policy numbers (docs/servers.md "Running proxied servers"); tests shrink them, the defaults are the real ones. */
export interface BackoffPolicy {
  /** First restart delay. */
  readonly baseMs: number;
  readonly capMs: number;
  /** Fraction of the delay added or removed at random, so restarts of many servers spread out. */
  readonly jitter: number;
  /** A run this long counts as stable and clears the crash history. */
  readonly stableMs: number;
  /** This many consecutive unstable runs (however far apart) → failed. */
  readonly maxUnstableExits: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = {
  baseMs: 500,
  capMs: 30_000,
  jitter: 0.2,
  stableMs: 60_000,
  maxUnstableExits: 5,
};

/** Delay before restart number `attempt` (1-based): base doubling to the cap, ± jitter. */
export function backoffDelay(policy: BackoffPolicy, attempt: number, random: () => number = Math.random): number {
  const raw = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  const spread = raw * policy.jitter * (random() * 2 - 1);
  return Math.max(0, Math.round(Math.min(policy.capMs, raw + spread)));
}

/** What to do after an unexpected exit, given when it started and earlier unstable exits. */
export type ExitVerdict = { action: 'restart'; delayMs: number; attempt: number } | { action: 'fail' };

/**
 * Counts consecutive unstable runs of one server; a stable run forgets them. No time window: a
 * server that fails after 30 s (longer than any window would allow between its exits) still
 * reaches the limit instead of restarting for ever.
 */
export class CrashHistory {
  #unstable = 0;

  constructor(private readonly policy: BackoffPolicy) {}

  get unstableExits(): number {
    return this.#unstable;
  }

  /** Record the end of a run that began at startedAt (ms) and decide. */
  onExit(startedAt: number, now: number, random?: () => number): ExitVerdict {
    // A run that was up long enough was not unstable: the count starts again.
    this.#unstable = now - startedAt >= this.policy.stableMs ? 0 : this.#unstable + 1;
    if (this.#unstable >= this.policy.maxUnstableExits) return { action: 'fail' };
    const attempt = Math.max(1, this.#unstable);
    return { action: 'restart', delayMs: backoffDelay(this.policy, attempt, random), attempt };
  }

  reset(): void {
    this.#unstable = 0;
  }
}

/** A delay that the function handed to setWake ends at once (stop() ends a pending restart). */
export function wakeableDelay(ms: number, setWake: (wake: () => void) => void): Promise<void> {
  return new Promise(resolve => {
    const timer = setTimeout(resolve, ms);
    setWake(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
