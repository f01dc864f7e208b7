import { randomBytes } from 'node:crypto';
import { linkSync, readdirSync, renameSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { SyncAdapter } from 'lowdb';
import { readIfExists, writePrivate } from './lock-file.js';

// A lowdb adapter that reads raw text (validation and recovery are the store's job) and
// replaces the file atomically: a private temp file (0600) in the same folder, then rename,
// so a reader sees the old file or the new one, never a part. Synchronous: the file is small,
// and the store calls it under its lock, which should be held for as short a time as possible.
export class AtomicJsonFile implements SyncAdapter<string> {
  readonly #file: string;
  readonly #tempPrefix: string;
  readonly #backup: string | undefined;
  /**
   * With a backup file: each write first makes the file being replaced the backup (a hard link,
   * so no copy). The caller turns this off while the file on disk is not a good copy.
   */
  keepBackup: boolean;
  constructor(file: string, backup?: string) {
    this.#file = file;
    this.#tempPrefix = `.${basename(file)}.`;
    this.#backup = backup;
    this.keepBackup = backup !== undefined;
  }

  read(): string | null {
    return readIfExists(this.#file) ?? null;
  }

  write(text: string): void {
    const temp = join(dirname(this.#file), `${this.#tempPrefix}${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    writePrivate(temp, text);
    try {
      if (this.keepBackup && this.#backup !== undefined) this.#linkBackup(this.#backup, temp);
      renameSync(temp, this.#file);
    } catch (error) {
      unlinkSync(temp);
      throw error;
    }
  }

  // backup := the current file, replaced atomically (link to a temp name, then rename over).
  #linkBackup(backup: string, temp: string): void {
    const side = temp.replace(/\.tmp$/, '.bak.tmp'); // swept like any temp file
    try {
      linkSync(this.#file, side);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // first write: nothing to keep
      throw error;
    }
    try {
      renameSync(side, backup);
    } catch (error) {
      unlinkSync(side);
      throw error;
    }
  }

  /** Removes temp files left by writers killed mid-write. Only safe under the store's lock. */
  sweepTemps(): number {
    const folder = dirname(this.#file);
    let removed = 0;
    for (const name of readdirSync(folder)) {
      if (!name.startsWith(this.#tempPrefix) || !name.endsWith('.tmp')) continue;
      try {
        unlinkSync(join(folder, name));
        removed += 1;
      } catch {
        // gone already
      }
    }
    return removed;
  }
}
