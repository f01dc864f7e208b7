// The inter-process store lock: broken only when its holder is provably gone, with bounded turns.
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { HubError } from '../../core/errors.js';
import { readProcessIdentity } from '../../core/process-identity.js';
import { breakStaleLock } from './break.js';
import {
  createExclusive,
  isStale,
  myIdentity,
  readIfExists,
  removeIfStill,
  statOrUndefined,
  unlinkIfMine,
} from './file.js';
import { noteLockTaken } from './stats.js';
import { watchNames, type Waker } from './wait.js';

// Hand-written on purpose: proper-lockfile judges staleness by mtime, so a slow holder loses its
// lock and a dead one holds it until the timeout; this breaks a lock only when its holder is
// provably gone (pid + start ticks + boot id), and its turns bound every waiter (figures below).
// An inter-process lock file, created atomically with "pid startTicks bootId" of its holder.
// A lock whose holder is gone is broken (lock-break.ts). Waiters poll with backoff; one that
// has waited TURN_AFTER_MS claims `<lock>.next` (its turn), nobody else takes the lock while a
// live turn is claimed, and the turn's owner is woken by inotify the moment the lock goes. So
// a process that releases and re-takes the lock in a loop cannot starve the others for long.

const DEFAULT_TIMEOUT_MS = 15_000;
const POLL_MAX_MS = 25;
// Barging (a releaser re-taking the lock at once) is allowed: each handoff to a sleeping
// waiter leaves the lock idle until the scheduler runs it (~20 ms on a loaded 2-core machine,
// measured), so forcing one per change cut throughput by half. A waiter that has waited this
// long claims the turn, which stops barging: the bound on anyone's wait behind bargers.
// Measured 8 writers × 250 changes on 2 cores: 500 ms → p99 ~515 ms, 150 ms → p99 ~190 ms at
// the same throughput (0.65–0.76× one uncontended writer), 60 ms → p99 ~140 ms but 0.62×.
const TURN_AFTER_MS = 150;
// A turn older than this is ignored: its owner is stuck, or the lock is held long anyway.
const TURN_VALID_MS = 1_000;
// A holder seen for this long is checked for life (cheap enough, and dead holders are rare).
const STALE_CHECK_AFTER_MS = 5;

/** True when we may try the lock now: no turn is claimed, it is ours, or it is void. */
function mayTry(turnFile: string, me: string): boolean {
  const turn = readIfExists(turnFile);
  if (turn === undefined || turn === me) return true;
  const info = statOrUndefined(turnFile);
  if ((info && Date.now() - info.mtimeMs > TURN_VALID_MS) || isStale(turnFile, turn)) {
    removeIfStill(turnFile, turn);
    return true;
  }
  return false;
}

// A holder seen stopped (SIGSTOP, a debugger, Ctrl-Z) for this long fails the waiters at once.
// Its lock is not broken: it would write its update when continued, over whatever was written
// meanwhile, and lose that. A clear error now beats every hub waiting out the full timeout.
const STOPPED_LIMIT_MS = 1_000;

/** True when the holder named by content is a live process that is stopped. */
function isStopped(content: string): boolean {
  const [pidText, ticksText] = content.trim().split(' ');
  const identity = readProcessIdentity(Number(pidText));
  if (!identity || (ticksText !== undefined && Number(ticksText) !== identity.startTicks)) return false;
  return identity.state === 'T' || identity.state === 't';
}

function stoppedError(file: string, holder: string): HubError {
  const pid = holder.split(' ')[0] ?? 'unknown';
  return new HubError(
    'STORE_BUSY',
    `The store lock ${file} is held by hub process ${pid}, which is stopped (SIGSTOP, a debugger or Ctrl-Z), so no change can be saved until it runs again: continue it (kill -CONT ${pid}) or end it (kill ${pid}; its lock is then released), and retry. Reading still works.`,
  );
}

function busyError(file: string, holder: string | undefined, ms: number): HubError {
  const pid = holder?.split(' ')[0] || 'unknown';
  return new HubError(
    'STORE_BUSY',
    `The store lock ${file} has been held by another hub process (pid ${pid}) for over ${ms} ms; retry, or delete that file if no hub is running.`,
  );
}

/** Takes the lock, waiting for a live holder and breaking a dead one's: whether it waited, broke one. */
async function acquire(file: string, timeoutMs: number): Promise<{ waited: boolean; broke: boolean }> {
  const me = myIdentity();
  const turnFile = `${file}.next`;
  if (!existsSync(turnFile) && createExclusive(file, me)) return { waited: false, broke: false };
  const began = Date.now();
  let waker: Waker | undefined;
  let broke = false;
  let holder: string | undefined;
  let holderSince = began;
  let stoppedSince: number | undefined;
  let wait = 1;
  try {
    for (;;) {
      if (mayTry(turnFile, me)) {
        if (createExclusive(file, me)) return { waited: true, broke };
        // Waited long enough: claim the turn and watch the lock to take it the moment it goes.
        if (!waker && Date.now() - began >= TURN_AFTER_MS && createExclusive(turnFile, me)) {
          waker = watchNames([file]);
          continue;
        }
      }
      const current = readIfExists(file);
      if (current !== holder) {
        holder = current;
        holderSince = Date.now();
        stoppedSince = undefined;
      } else if (current !== undefined && Date.now() - holderSince >= STALE_CHECK_AFTER_MS && isStopped(current)) {
        stoppedSince ??= Date.now();
        if (Date.now() - stoppedSince >= STOPPED_LIMIT_MS) throw stoppedError(file, current);
      } else if (current !== undefined && Date.now() - holderSince >= STALE_CHECK_AFTER_MS && isStale(file, current)) {
        const result = breakStaleLock(file, current);
        broke ||= result === 'broken';
        if (result !== 'busy') continue;
      } else if (Date.now() - holderSince > timeoutMs) {
        throw busyError(file, current, timeoutMs);
      }
      const ms = wait + Math.random() * wait;
      await (waker ? waker.wait(ms) : sleep(ms));
      wait = Math.min(wait * 2, POLL_MAX_MS);
    }
  } finally {
    // Taken, or given up (timeout): either way our turn, if we hold one, is over.
    if (waker) {
      waker.close();
      unlinkIfMine(turnFile, me);
    }
  }
}

/** Runs fn(brokeStaleLock) while holding the lock file. */
export async function withLock<T>(
  file: string,
  fn: (brokeStaleLock: boolean) => Promise<T>,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<T> {
  const began = performance.now();
  const { waited, broke } = await acquire(file, timeoutMs);
  noteLockTaken(file, waited ? performance.now() - began : undefined, broke);
  try {
    return await fn(broke);
  } finally {
    unlinkIfMine(file, myIdentity());
  }
}
