// The store's lowdb stack, bottom: db.json's text replaced atomically, the old file kept as backup.
import { linkSync, renameSync, unlinkSync } from 'node:fs';
import type { SyncAdapter } from 'lowdb';
import { sweepAtomicTemps, writeFileAtomic } from '../core/write-atomic.js';
import { readIfExists } from './lock/file.js';

// The bottom of the store's lowdb stack (lowdb's core ← adapters ← presets): text in and out of
// one file, replaced atomically (core/write-atomic.ts), with the file it replaces kept as a backup.
// It knows nothing of JSON: store-file.ts parses and validates on top of it, as lowdb's own
// DataFile does on top of its TextFile. The store's lock (lock.ts) is taken around it by store.ts.
export class AtomicTextFile implements SyncAdapter<string> {
  readonly #file: string;
  readonly #backup: string | undefined;
  /**
   * With a backup file: each write first makes the file being replaced the backup (a hard link,
   * so no copy). The caller turns this off while the file on disk is not a good copy.
   */
  keepBackup: boolean;
  constructor(file: string, backup?: string) {
    this.#file = file;
    this.#backup = backup;
    this.keepBackup = backup !== undefined;
  }

  read(): string | null {
    return readIfExists(this.#file) ?? null;
  }

  write(text: string): void {
    const backup = this.keepBackup ? this.#backup : undefined;
    writeFileAtomic(this.#file, text, backup === undefined ? undefined : temp => this.#linkBackup(backup, temp));
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
    return sweepAtomicTemps(this.#file);
  }
}
