// hub's one atomic file writer: a private temp file beside the target, then a rename.
import { randomBytes } from 'node:crypto';
import { readdirSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

// hub's one atomic writer (the store's db.json and tools/*.json, shared server state, pending
// installs): a private temp file (0600) in the same folder, then rename, so a reader sees the old
// file or the new one, never a part. No fsync, as before: a crash of hub (or a kill) never leaves
// half a file; a power cut may lose the last write, and the store's db.json.bak and record-by-record
// recovery cover that. Synchronous: the files are small, and the store writes under its lock.

/**
 * Writes a new private file; on failure (a full disk: the file is created, the write fails) it
 * is removed again, so a live process retrying on a full disk leaves no litter behind.
 */
export function writePrivate(file: string, content: string): void {
  try {
    writeFileSync(file, content, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') rmSync(file, { force: true });
    throw error;
  }
}

// .<name>.<pid>.<random>.tmp beside the file: hidden, never taken for a file of the folder (e.g.
// a *.json another reader lists), and found again by sweepAtomicTemps.
const tempPrefix = (file: string): string => `.${basename(file)}.`;

/**
 * Replaces file with text atomically. beforeRename (given the temp file's path) runs once the new
 * text is complete on disk and before it takes the name: the store keeps its backup there.
 */
export function writeFileAtomic(file: string, text: string, beforeRename?: (temp: string) => void): void {
  const temp = join(dirname(file), `${tempPrefix(file)}${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  writePrivate(temp, text);
  try {
    beforeRename?.(temp);
    renameSync(temp, file);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
}

/**
 * Removes the temp files of writers of file killed mid-write. Only safe where no other writer of
 * file can be writing (the store calls it under its lock).
 */
export function sweepAtomicTemps(file: string): number {
  const folder = dirname(file);
  const prefix = tempPrefix(file);
  let removed = 0;
  for (const name of readdirSync(folder)) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    try {
      unlinkSync(join(folder, name));
      removed += 1;
    } catch {
      // gone already
    }
  }
  return removed;
}
