// The small synchronous file operations the store lock is built from: exclusive create, stale checks.
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, readFileSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { bootId, isSameProcess, pidAlive, readProcessIdentity } from '../../core/process-identity.js';
import { writePrivate } from '../../core/write-atomic.js';
import { platform } from '../../core/platform/platform.js';

// The small file operations the lock is built from. They are synchronous on purpose: each is a
// single fast syscall on a tiny local file, and a lock is held for less time when its holder
// does not queue behind unrelated work in libuv's thread pool.

/** "pid startTicks bootId": names this process for good (a pid alone is recycled). */
export const myIdentity = (() => {
  let cached: string | undefined;
  return () => (cached ??= `${process.pid} ${readProcessIdentity(process.pid)?.startTicks ?? 0} ${bootId()}`);
})();

/** Content of file, or undefined when it does not exist. */
export function readIfExists(file: string): string | undefined {
  // existsSync first: a throw costs a stack trace, and waiters ask about absent files often.
  if (!existsSync(file)) return undefined;
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Creates file holding content, atomically and exclusively: false when it already exists.
 * The content is written to a private temp file first and hard-linked into place, so the lock
 * is never seen empty (a holder killed between create and write would otherwise leave one).
 * A file that already exists is seen with one stat: waiters poll, and a failed attempt must
 * not create and delete files in the folder the holder is writing in.
 */
export function createExclusive(file: string, content: string): boolean {
  if (existsSync(file)) return false;
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writePrivate(temp, content);
  try {
    linkSync(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(temp);
  }
}

// An unparsable lock (empty: written by a holder killed between create and write, e.g. an
// older hub) cannot name its holder; it is taken as stale once older than this.
const UNPARSABLE_STALE_MS = 1_000;

/** True when pid (started at startTicks in boot, when given) no longer runs. */
export function isGone(pid: number, startTicks?: number, boot?: string): boolean {
  // Where start times cannot be read (core/platform/platform.ts), "is the pid alive" is all there is.
  return platform().processes.source !== 'none' ? !isSameProcess(pid, startTicks, boot) : !pidAlive(pid);
}

/** True when content names a process that no longer runs (or cannot be read and is old). */
export function isStale(file: string, content: string): boolean {
  const [pidText, ticksText, boot] = content.trim().split(' ');
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) {
    const info = statOrUndefined(file);
    return info !== undefined && Date.now() - info.mtimeMs > UNPARSABLE_STALE_MS;
  }
  return isGone(pid, ticksText === undefined ? undefined : Number(ticksText), boot);
}

export function statOrUndefined(file: string): { mtimeMs: number; ino: number } | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Removes file if it still holds `expected`: moved aside first (rename is atomic, so only one
 * remover gets it), then checked; a file that turns out to be someone else's is linked back.
 */
export function removeIfStill(file: string, expected: string): boolean {
  const aside = `${file}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(file, aside);
  } catch {
    return false;
  }
  const taken = readIfExists(aside);
  if (taken !== expected) {
    try {
      linkSync(aside, file);
    } catch {
      // Someone created a new one meanwhile: theirs stands.
    }
  }
  unlinkSync(aside);
  return taken === expected;
}

/** Deletes file if it still holds content (a cheap check-then-unlink for our own files). */
export function unlinkIfMine(file: string, content: string): void {
  if (readIfExists(file) === content) {
    try {
      unlinkSync(file);
    } catch {
      // already gone
    }
  }
}
