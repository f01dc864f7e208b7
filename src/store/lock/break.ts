// Breaking a dead holder's lock under a second lock, so a live holder's lock is never removed.
import { createExclusive, isStale, myIdentity, readIfExists, removeIfStill, unlinkIfMine } from './file.js';

// Breaking a dead holder's lock. Two waiters may both see the same dead holder; if both
// removed "the lock", the second could remove the one a live process has just taken. So a
// lock is only removed under a second lock (`<lock>.break`, held for a few syscalls), after
// re-reading it there; and the removal itself is a rename that only one process can win.

export type BreakResult = 'broken' | 'gone' | 'busy';

/** Breaks lockFile if it still holds `seen` and that holder is still dead. */
export function breakStaleLock(lockFile: string, seen: string): BreakResult {
  const breaker = `${lockFile}.break`;
  const me = myIdentity();
  if (!createExclusive(breaker, me)) {
    // Another process is breaking it; a breaker that died meanwhile is itself removed.
    const other = readIfExists(breaker);
    if (other !== undefined && isStale(breaker, other)) removeIfStill(breaker, other);
    return 'busy';
  }
  try {
    // Re-checked under the breaker: the lock must still be the one seen, and still stale.
    const current = readIfExists(lockFile);
    if (current !== seen || !isStale(lockFile, current)) return 'gone';
    return removeIfStill(lockFile, current) ? 'broken' : 'gone';
  } finally {
    unlinkIfMine(breaker, me);
  }
}
