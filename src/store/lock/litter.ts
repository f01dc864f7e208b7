// Side files of a lock left by processes killed mid-operation, swept.
import { readdirSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isGone } from './file.js';

// `<lock>[.next|.break].<pid>.<hex>` (createExclusive) and `….stale-<pid>-<hex>` (removeIfStill).
const LITTER = /^(?:\.next|\.break)?(?:\.|\.stale-)(\d+)[.-][0-9a-f]{8}$/;

/** Removes the side files of lockFile left by processes killed mid-operation (dead pids only). */
export function sweepLockLitter(lockFile: string): number {
  const folder = dirname(lockFile);
  const base = basename(lockFile);
  let removed = 0;
  for (const name of readdirSync(folder)) {
    const pid = name.startsWith(base) ? LITTER.exec(name.slice(base.length))?.[1] : undefined;
    if (pid === undefined || !isGone(Number(pid))) continue;
    try {
      unlinkSync(join(folder, name));
      removed += 1;
    } catch {
      // gone already
    }
  }
  return removed;
}
