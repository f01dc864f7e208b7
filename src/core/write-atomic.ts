import { renameSync, writeFileSync } from 'node:fs';

/** Writes text beside file (0600) and renames it over, so a reader never sees half a file. */
export function writeFileAtomic(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  renameSync(temp, file);
}
