// The store: snapshots without the lock, and locked updates that validate and write atomically.
import { existsSync, linkSync, mkdirSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { LowSync } from 'lowdb';
import { HubError, isHubError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { silentLogger } from '../core/logger.js';
import type { HubPaths } from '../core/paths.js';
import { AtomicTextFile } from './atomic-text-file.js';
import { sweepLockLitter } from './lock/litter.js';
import { withLock } from './lock/lock.js';
import { emptyStore, type StoreData } from './schema.js';
import { serialize } from './serial.js';
import { StoreFile, type Corrupt } from './store-file.js';

export interface Store {
  /** A consistent snapshot, read without the lock (files are only ever replaced by rename). */
  read(): Promise<StoreData>;
  /**
   * lock → re-read → fn(data) → validate → atomic write → unlock. fn may mutate data; its return
   * is passed on. Keep fn short (others wait on it); calling update from inside fn is refused.
   */
  update<T>(fn: (data: StoreData) => T | Promise<T>): Promise<T>;
  /**
   * read() at once, for who must answer before any await: no lock and no repair (a damaged
   * file's recovery is used in memory only); undefined when db.json cannot be read now or is a
   * newer hub's.
   */
  readNow(): StoreData | undefined;
  readonly file: string;
}

const SWEEP_EVERY_MS = 30_000;

// db.json.corrupt-<time>, never overwriting an earlier one from the same millisecond.
function asideName(db: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  let aside = `${db}.corrupt-${stamp}`;
  for (let n = 1; existsSync(aside); n += 1) aside = `${db}.corrupt-${stamp}-${n}`;
  return aside;
}

// Errors that mean "this HUB_HOME cannot be written now" (read-only, full, not ours): reads
// still work, and callers that only tidy up may carry on without saving.
const UNWRITABLE = new Set(['EROFS', 'ENOSPC', 'EDQUOT', 'EACCES', 'EPERM']);

// A failed file operation, as one sentence: what failed, on which file, what to do.
function asStoreError(error: unknown, db: string): unknown {
  if (isHubError(error) || !(error instanceof Error) || !('code' in error) || !('syscall' in error)) return error;
  if (UNWRITABLE.has(String(error.code))) {
    return new HubError(
      'STORE_UNWRITABLE',
      `hub cannot write its store ${db} (${error.message}), so this change was not made; reading works as before. Make ${dirname(db)} writable by this user or free disk space there, then retry.`,
      { cause: error },
    );
  }
  return new HubError(
    'INTERNAL',
    `The store ${db} could not be read or written (${error.message}); check that ${dirname(db)} is writable by this user and the disk has space, then retry.`,
    { cause: error },
  );
}

/** The lock file every change to db.json takes. */
export const storeLockFile = (db: string): string => `${db}.lock`;

export function openStore(paths: HubPaths, log: Logger = silentLogger): Store {
  mkdirSync(paths.home, { recursive: true, mode: 0o700 });
  const db = paths.db;
  const lockFile = storeLockFile(db);
  // One key per real file, so two openStore() calls in one process share one queue.
  const queueKey = join(realpathSync(dirname(db)), basename(db));
  // db.json.bak: the copy before the last write, always one that was read back and validated.
  const backupFile = `${db}.bak`;
  const text = new AtomicTextFile(db, backupFile);
  const file = new StoreFile(text, db, backupFile);
  // lowdb's shape: Low on top of a parse-and-validate adapter (StoreFile) on top of a text
  // adapter (AtomicTextFile). Used only synchronously (read then take, set then write), so
  // concurrent calls never see each other's data.
  const low = new LowSync<StoreData>(file, emptyStore());
  // When this process last removed writers' litter (0: not yet).
  let sweptAt = 0;

  const load = (): { data: StoreData; damaged: Corrupt | undefined } => {
    low.read();
    return { data: low.data, damaged: file.damaged };
  };

  const save = (data: StoreData): void => {
    low.data = data;
    low.write();
  };

  // Under the lock: a corrupt file is kept aside verbatim (the quarantine a person reviews;
  // health.ts reports it until they remove it) and what could be recovered, record by
  // record and from db.json.bak, is written in its place; a newer version is refused untouched.
  const loadForUpdate = (): StoreData => {
    const { data, damaged } = load();
    if (!damaged) return data;
    // A second name for the bad file, then the recovered data replaces it atomically: there
    // is no moment without a db.json.
    const aside = asideName(db);
    linkSync(db, aside);
    const kept = Object.keys(data.servers).length + Object.keys(data.processes).length;
    const { damage } = damaged;
    log.error(
      {
        file: db,
        movedTo: aside,
        reason: damaged.reason,
        dropped: damaged.dropped,
        kept,
        unreadable: damage.unreadable,
        fromBackup: damage.fromBackup,
      },
      `${db} was corrupt (${damaged.reason}): kept aside as ${aside}; hub goes on with the ${kept} server and process records it could recover (${damage.fromBackup.length} of them from ${basename(backupFile)}), ${damaged.dropped} lost.`,
    );
    save(data);
    return data;
  };

  // Writers killed mid-write leave temp files; under the lock nobody else is writing one.
  const sweep = (): void => {
    const removed = text.sweepTemps() + sweepLockLitter(lockFile);
    if (removed > 0) log.info({ file: db, removed }, 'removed files left by store writers that were killed mid-write');
    sweptAt = Date.now();
  };

  // fn's own errors pass through as they are; the store's file errors are explained.
  const update = <T>(fn: (data: StoreData) => T | Promise<T>): Promise<T> =>
    serialize(queueKey, async () => {
      let fnFailed = false;
      try {
        return await withLock(lockFile, async brokeStaleLock => {
          // Again every SWEEP_EVERY_MS: hubs killed while this one runs leave litter too.
          if (brokeStaleLock || Date.now() - sweptAt >= SWEEP_EVERY_MS) sweep();
          const data = loadForUpdate();
          let result: T;
          try {
            result = await fn(data);
          } catch (error) {
            fnFailed = true;
            throw error;
          }
          save(data);
          return result;
        });
      } catch (error) {
        throw fnFailed ? error : asStoreError(error, db);
      }
    });

  return {
    file: db,
    async read() {
      let loaded: { data: StoreData; damaged: Corrupt | undefined };
      try {
        loaded = load();
      } catch (error) {
        throw asStoreError(error, db);
      }
      if (!loaded.damaged) return loaded.data;
      // Repair under the lock, then hand back what is now on disk; a HUB_HOME that cannot be
      // written still reads: the recovery is then used in memory only.
      try {
        return await update(data => data);
      } catch (error) {
        if (isHubError(error) && error.code === 'STORE_UNWRITABLE') return loaded.data;
        throw error;
      }
    },
    readNow() {
      try {
        return load().data;
      } catch {
        return undefined;
      }
    },
    update,
  };
}
