import { existsSync, linkSync, mkdirSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { LowSync } from 'lowdb';
import { HubError, isHubError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { silentLogger } from '../core/logger.js';
import type { HubPaths } from '../core/paths.js';
import { AtomicJsonFile } from './atomic-json-file.js';
import { sweepLockLitter } from './lock-litter.js';
import { withLock } from './lock.js';
import { readIfExists } from './lock-file.js';
import { decodeStore, type Decoded } from './recover.js';
import { STORE_VERSION, StoreSchema, type StoreData } from './schema.js';
import { serialize } from './serial.js';

export interface Store {
  /** A consistent snapshot, read without the lock (files are only ever replaced by rename). */
  read(): Promise<StoreData>;
  /**
   * lock → re-read → fn(data) → validate → atomic write → unlock. fn may mutate data; its return
   * is passed on. Keep fn short (others wait on it); calling update from inside fn is refused.
   */
  update<T>(fn: (data: StoreData) => T | Promise<T>): Promise<T>;
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

export function openStore(paths: HubPaths, log: Logger = silentLogger): Store {
  mkdirSync(paths.home, { recursive: true, mode: 0o700 });
  const db = paths.db;
  const lockFile = `${db}.lock`;
  // One key per real file, so two openStore() calls in one process share one queue.
  const queueKey = join(realpathSync(dirname(db)), basename(db));
  // db.json.bak: the copy before the last write, always one that was read back and validated.
  const backupFile = `${db}.bak`;
  const file = new AtomicJsonFile(db, backupFile);
  // lowdb over our adapter: the data is the raw text, decoded and validated here. Used only
  // synchronously (reset, read, take), so concurrent calls never see each other's text.
  const low = new LowSync<string>(file, '');
  // When this process last removed writers' litter (0: not yet).
  let sweptAt = 0;
  // The text this process last wrote (validated before writing): when the file still holds
  // exactly that, it is only parsed, not validated again. Text is compared, not stat: inodes
  // and coarse mtimes are reused.
  let lastWritten: string | undefined;

  const readText = (): string => {
    low.data = '';
    low.read();
    return low.data;
  };

  // A change that breaks the schema is refused here, so one bad update cannot make the next
  // reader move the whole file aside.
  // Nothing is written when the change changed nothing (the text on disk is the same).
  const writeData = (data: StoreData, onDisk?: string, onDiskIsGood = true): void => {
    const checked = StoreSchema.safeParse(data);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      throw new HubError(
        'INTERNAL',
        `A store update would have written an invalid ${db} (${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}), so it was not saved; this is a bug in hub, please report it.`,
      );
    }
    const text = `${JSON.stringify(checked.data, null, 2)}\n`;
    if (text !== onDisk) {
      low.data = text;
      file.keepBackup = onDiskIsGood;
      try {
        low.write();
      } finally {
        file.keepBackup = true;
      }
    }
    lastWritten = text;
  };

  // The last good copy, for the records a damaged db.json lost.
  const readBackup = (): StoreData | undefined => {
    const decoded = decodeStore(readIfExists(backupFile) ?? null);
    return decoded.kind === 'ok' ? decoded.data : undefined;
  };

  const decode = (text: string): Exclude<Decoded, { kind: 'newer' }> => {
    const decoded = decodeStore(text, readBackup);
    if (decoded.kind === 'newer') {
      throw new HubError(
        'STORE_CORRUPT',
        `${db} was written by a newer hub (store version ${decoded.version}; this hub reads up to ${STORE_VERSION}), so it was left untouched: upgrade hub to use it.`,
      );
    }
    return decoded;
  };

  // Under the lock: a corrupt file is kept aside verbatim (the quarantine a person reviews;
  // store-health.ts reports it until they remove it) and what could be recovered, record by
  // record and from db.json.bak, is written in its place; a newer version is refused untouched.
  const loadForUpdate = (): { data: StoreData; text: string } => {
    const text = readText();
    if (text === lastWritten) return { data: JSON.parse(text) as StoreData, text };
    const decoded = decode(text);
    if (decoded.kind !== 'corrupt') return { data: decoded.data, text };
    // A second name for the bad file, then the recovered data replaces it atomically: there
    // is no moment without a db.json.
    const aside = asideName(db);
    linkSync(db, aside);
    const kept = Object.keys(decoded.data.servers).length + Object.keys(decoded.data.processes).length;
    const { damage } = decoded;
    log.error(
      {
        file: db,
        movedTo: aside,
        reason: decoded.reason,
        dropped: decoded.dropped,
        kept,
        unreadable: damage.unreadable,
        fromBackup: damage.fromBackup,
      },
      `${db} was corrupt (${decoded.reason}): kept aside as ${aside}; hub goes on with the ${kept} server and process records it could recover (${damage.fromBackup.length} of them from ${basename(backupFile)}), ${decoded.dropped} lost.`,
    );
    writeData(decoded.data, undefined, false);
    return { data: decoded.data, text: lastWritten ?? '' };
  };

  // Writers killed mid-write leave temp files; under the lock nobody else is writing one.
  const sweep = (): void => {
    const removed = file.sweepTemps() + sweepLockLitter(lockFile);
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
          const { data, text } = loadForUpdate();
          let result: T;
          try {
            result = await fn(data);
          } catch (error) {
            fnFailed = true;
            throw error;
          }
          writeData(data, text);
          return result;
        });
      } catch (error) {
        throw fnFailed ? error : asStoreError(error, db);
      }
    });

  return {
    file: db,
    async read() {
      let text: string;
      try {
        text = readText();
      } catch (error) {
        throw asStoreError(error, db);
      }
      if (text === lastWritten) return JSON.parse(text) as StoreData;
      const decoded = decode(text);
      if (decoded.kind === 'ok') return decoded.data;
      // Repair under the lock, then hand back what is now on disk; a HUB_HOME that cannot be
      // written still reads: the recovery is then used in memory only.
      try {
        return await update(data => data);
      } catch (error) {
        if (isHubError(error) && error.code === 'STORE_UNWRITABLE') return decoded.data;
        throw error;
      }
    },
    update,
  };
}
