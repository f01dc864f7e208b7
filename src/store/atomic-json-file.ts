import { randomBytes } from 'node:crypto';
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import type { Adapter } from 'lowdb';

// A lowdb adapter that reads raw text (validation and recovery are the store's job) and
// replaces the file atomically: a private temp file (0600) in the same folder, then rename.
export class AtomicJsonFile implements Adapter<string | null> {
  readonly #file: string;
  constructor(file: string) {
    this.#file = file;
  }

  async read(): Promise<string | null> {
    try {
      return await readFile(this.#file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async write(text: string | null): Promise<void> {
    if (text === null) return;
    const temp = join(dirname(this.#file), `.${basename(this.#file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    const handle = await open(temp, 'w', 0o600);
    try {
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
    try {
      await rename(temp, this.#file);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  }
}
