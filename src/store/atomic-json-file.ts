import { randomBytes } from 'node:crypto';
import { readdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { SyncAdapter } from 'lowdb';
import { readIfExists } from './lock-file.js';

// A lowdb adapter that reads raw text (validation and recovery are the store's job) and
// replaces the file atomically: a private temp file (0600) in the same folder, then rename,
// so a reader sees the old file or the new one, never a part. Synchronous: the file is small,
// and the store calls it under its lock, which should be held for as short a time as possible.
export class AtomicJsonFile implements SyncAdapter<string> {
  readonly #file: string;
  readonly #tempPrefix: string;
  constructor(file: string) {
    this.#file = file;
    this.#tempPrefix = `.${basename(file)}.`;
  }

  read(): string | null {
    return readIfExists(this.#file) ?? null;
  }

  write(text: string): void {
    const temp = join(dirname(this.#file), `${this.#tempPrefix}${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    writeFileSync(temp, text, { mode: 0o600, flag: 'wx' });
    try {
      renameSync(temp, this.#file);
    } catch (error) {
      unlinkSync(temp);
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
