import { open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { HubError } from '../errors.js';
import { isSameProcess, readProcessIdentity } from '../process/identity.js';

// An inter-process lock file: created with O_EXCL, holding "pid startTicks" of its holder.
// A lock whose holder is gone (pid dead, or reused by another process) is stale and broken;
// only one breaker at a time may break it (a second, short-lived lock), so two breakers can
// never both remove a lock that a live process has just taken.

const BREAK_LOCK_STALE_MS = 2_000;
const DEFAULT_TIMEOUT_MS = 15_000;

const myIdentity = (() => {
  let cached: string | undefined;
  return () => (cached ??= `${process.pid} ${readProcessIdentity(process.pid)?.startTicks ?? 0}`);
})();

async function tryCreate(file: string): Promise<boolean> {
  try {
    const handle = await open(file, 'wx', 0o600);
    await handle.writeFile(myIdentity());
    await handle.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function holderIsDead(file: string): Promise<{ dead: boolean; content?: string }> {
  let content: string;
  try {
    content = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { dead: false };
    throw error;
  }
  const [pidText, ticksText] = content.trim().split(' ');
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) {
    // Half-written by a holder killed between create and write: stale once it is old enough.
    const info = await stat(file).catch(() => undefined);
    return { dead: info !== undefined && Date.now() - info.mtimeMs > 1_000, content };
  }
  return { dead: !isSameProcess(pid, Number(ticksText)), content };
}

async function breakStale(file: string, seen: string): Promise<void> {
  const breaker = `${file}.break`;
  if (!(await tryCreate(breaker))) {
    const info = await stat(breaker).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > BREAK_LOCK_STALE_MS) await unlink(breaker).catch(() => undefined);
    return;
  }
  try {
    // Re-check under the breaker lock: the lock must still be the dead holder's.
    const current = await readFile(file, 'utf8').catch(() => undefined);
    if (current === seen) {
      const aside = `${file}.stale-${process.pid}`;
      await rename(file, aside).catch(() => undefined);
      await unlink(aside).catch(() => undefined);
    }
  } finally {
    await unlink(breaker).catch(() => undefined);
  }
}

/** Runs fn while holding the lock file; waits for a live holder, breaks a dead one's lock. */
export async function withLock<T>(file: string, fn: () => Promise<T>, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let wait = 1;
  while (!(await tryCreate(file))) {
    const { dead, content } = await holderIsDead(file);
    if (dead && content !== undefined) {
      await breakStale(file, content);
      continue;
    }
    if (Date.now() > deadline) {
      throw new HubError('STORE_BUSY', `The store lock ${file} is held by another hub (${content ?? '?'}) for over ${timeoutMs} ms. Retry, or remove the lock file if no hub is running.`);
    }
    await sleep(wait + Math.random() * wait);
    wait = Math.min(wait * 2, 20);
  }
  try {
    return await fn();
  } finally {
    await unlink(file).catch(() => undefined);
  }
}
