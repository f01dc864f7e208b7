import { mkdirSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { Low } from 'lowdb';
import { HubError } from '../errors.js';
import type { Logger } from '../logger.js';
import { silentLogger } from '../logger.js';
import type { HubPaths } from '../paths.js';
import { AtomicJsonFile } from './atomic-json-file.js';
import { withLock } from './lock.js';
import { decodeStore } from './recover.js';
import { STORE_VERSION, type StoreData } from './schema.js';

export interface Store {
  /** A consistent snapshot, read without the lock (files are only ever replaced by rename). */
  read(): Promise<StoreData>;
  /** lock → re-read → fn(data) → atomic write → unlock. fn may mutate data; its return is passed on. */
  update<T>(fn: (data: StoreData) => T | Promise<T>): Promise<T>;
  readonly file: string;
}

export function openStore(paths: HubPaths, log: Logger = silentLogger): Store {
  mkdirSync(paths.home, { recursive: true, mode: 0o700 });
  const file = new AtomicJsonFile(paths.db);
  // lowdb over our adapter: the data is the raw text, decoded and validated here.
  const db = new Low<string | null>(file, null);
  const lockFile = `${paths.db}.lock`;

  const readText = async (): Promise<string | null> => {
    // Low keeps its old data when the adapter reads nothing: clear it so a deleted file reads as empty.
    db.data = null;
    await db.read();
    return db.data;
  };

  // Runs under the lock: a corrupt file is moved aside (never silently replaced) and what
  // could be recovered from it is written in its place.
  const loadForUpdate = async (): Promise<StoreData> => {
    const decoded = decodeStore(await readText());
    if (decoded.kind === 'ok') return decoded.data;
    if (decoded.kind === 'newer') {
      throw new HubError('STORE_CORRUPT', `${paths.db} was written by a newer hub (store version ${decoded.version}, this hub knows ${STORE_VERSION}). Upgrade hub; the file was left untouched.`);
    }
    const aside = `${paths.db}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    await rename(paths.db, aside);
    log.error({ file: paths.db, movedTo: aside, reason: decoded.reason, dropped: decoded.dropped }, 'db.json was corrupt: moved aside, starting with what could be recovered');
    await writeData(decoded.data);
    return decoded.data;
  };

  const writeData = async (data: StoreData) => {
    db.data = `${JSON.stringify(data, null, 2)}\n`;
    await db.write();
  };

  const update = <T>(fn: (data: StoreData) => T | Promise<T>): Promise<T> =>
    withLock(lockFile, async () => {
      const data = await loadForUpdate();
      const result = await fn(data);
      await writeData(data);
      return result;
    });

  return {
    file: paths.db,
    async read() {
      const decoded = decodeStore(await readText());
      if (decoded.kind === 'ok') return decoded.data;
      // Repair (or refuse) under the lock, then hand back what is now on disk.
      return update(data => data);
    },
    update,
  };
}
