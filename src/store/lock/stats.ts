// How long this process waited for each lock file since it started: what the dashboard's store
// panel shows (a store under contention from many hubs shows here first). Per process on purpose:
// recording every wait in a shared file would itself need the lock.

export interface LockWaits {
  /** Times this process took the lock. */
  readonly taken: number;
  /** Of those, how many had to wait for another holder. */
  readonly waited: number;
  readonly totalWaitMs: number;
  readonly longestWaitMs: number;
  /** When the last wait ended (ISO), or null. */
  readonly lastWaitAt: string | null;
  /** Locks left by a dead holder, broken by this process. */
  readonly brokenStale: number;
}

const NONE: LockWaits = { taken: 0, waited: 0, totalWaitMs: 0, longestWaitMs: 0, lastWaitAt: null, brokenStale: 0 };
const byFile = new Map<string, LockWaits>();

/** waitedMs is undefined when the lock was free at once (the first create took it). */
export function noteLockTaken(file: string, waitedMs: number | undefined, brokeStale: boolean): void {
  const was = byFile.get(file) ?? NONE;
  const waited = waitedMs !== undefined;
  const ms = waited ? Math.round(waitedMs) : 0;
  byFile.set(file, {
    taken: was.taken + 1,
    waited: was.waited + (waited ? 1 : 0),
    totalWaitMs: was.totalWaitMs + ms,
    longestWaitMs: Math.max(was.longestWaitMs, ms),
    lastWaitAt: waited ? new Date().toISOString() : was.lastWaitAt,
    brokenStale: was.brokenStale + (brokeStale ? 1 : 0),
  });
}

export function lockWaits(file: string): LockWaits {
  return byFile.get(file) ?? NONE;
}
