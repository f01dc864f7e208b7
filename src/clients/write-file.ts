// Client config files written safely: a backup first, then an atomic replace keeping the mode.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, copyFile, mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** `<file>.bak-<timestamp>`: a copy of the file as it was, same mode, before hub changes it. */
export async function backupFile(file: string, now: Date = new Date()): Promise<string> {
  const stamp = `${file}.bak-${now.toISOString().replace(/[:.]/g, '-')}`;
  const { mode } = await stat(file);
  // Never overwrite an earlier backup (two writes in the same millisecond).
  for (let n = 0; ; n++) {
    const backup = n === 0 ? stamp : `${stamp}-${n}`;
    try {
      await copyFile(file, backup, constants.COPYFILE_EXCL);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw error;
    }
    await chmod(backup, mode & 0o777);
    return backup;
  }
}

// Written beside the file and renamed over it, so a client never reads half a config.
// An existing file keeps its mode; a new one is private to the user (0600).
export async function writeConfigFile(file: string, text: string): Promise<void> {
  let mode = 0o600;
  try {
    mode = (await stat(file)).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dirname(file), { recursive: true });
  }
  const temporary = join(dirname(file), `.${basename(file)}.hub-${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, text, { mode });
    await chmod(temporary, mode);
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}
