// Where a project's .hub.json is looked for: from each root up to its git root (zod-free).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

// Where a project's `.hub.json` is looked for (docs/exposure.md "Per-project sets"). From each start folder
// (the client's file:// roots in order, else hub's working folder): <folder>/.hub.json, else stop
// at a folder holding .git (the project's root), else the parent, up to the filesystem root. The
// first file found wins. Zod-free: the cold-start lane looks too.

export const PROJECT_FILE = '.hub.json';

// Bounded: a deep path cannot stall a listing.
const MAX_DEPTH = 64;

/** The folders searched from one start folder, nearest first (to its git root or the filesystem root). */
export function lookupFolders(start: string): string[] {
  const folders: string[] = [];
  let folder = start;
  for (let depth = 0; depth < MAX_DEPTH; depth += 1) {
    folders.push(folder);
    if (existsSync(join(folder, PROJECT_FILE)) || existsSync(join(folder, '.git'))) break;
    const parent = dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  return folders;
}

/** The project file that applies to these start folders, if any. */
export function findProjectFile(starts: readonly string[]): string | undefined {
  for (const start of starts) {
    const folder = lookupFolders(start).at(-1);
    const file = folder === undefined ? undefined : join(folder, PROJECT_FILE);
    if (file !== undefined && existsSync(file)) return file;
  }
  return undefined;
}
