// The audit log's files: rotation by size or age, one hub at a time, and old files swept.
import { existsSync, fstatSync, mkdirSync, readdirSync, renameSync, rmdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditSettings } from '../../core/config/config.js';

/** The file every hub appends to; rotated ones are audit-<time>-<pid>.jsonl beside it. */
export const AUDIT_FILE = 'audit.jsonl';
const ROTATED = /^audit-[\dTZ-]+-\d+\.jsonl$/;
const LOCK = 'rotate.lock';
// A rotation takes a rename; a lock older than this was left by a hub that died in it.
const STALE_LOCK_MS = 10_000;

/** The log's files, oldest first (rotated ones by their time, the current file last). */
export function auditFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const rotated = names.filter(name => ROTATED.test(name)).sort();
  return [...rotated, ...(names.includes(AUDIT_FILE) ? [AUDIT_FILE] : [])].map(name => join(dir, name));
}

// Only one hub renames at a time; the others see a new inode and reopen (audit-log.ts).
function withRotateLock(dir: string, fn: () => void): void {
  const lock = join(dir, LOCK);
  try {
    mkdirSync(lock);
  } catch {
    try {
      if (Date.now() - statSync(lock).mtimeMs < STALE_LOCK_MS) return;
      rmdirSync(lock);
      mkdirSync(lock);
    } catch {
      return;
    }
  }
  try {
    fn();
  } finally {
    rmdirSync(lock);
  }
}

/**
 * Renames the current file aside when it is over audit.maxBytes or older than audit.maxAgeHours
 * (and is still the file this fd writes: another hub may have just done it). True when the
 * caller must reopen.
 */
export function rotateIfDue(dir: string, fd: number, openedMs: number, settings: AuditSettings): boolean {
  const stat = fstatSync(fd);
  const due =
    stat.size >= settings.maxBytes || (stat.size > 0 && Date.now() - openedMs >= settings.maxAgeHours * 3_600_000);
  if (!due) return false;
  const file = join(dir, AUDIT_FILE);
  withRotateLock(dir, () => {
    // Rotated by another hub already (or gone): the caller reopens either way.
    if (statSync(file, { throwIfNoEntry: false })?.ino !== stat.ino) return;
    // Two rotations in one millisecond (a tiny maxBytes) must not overwrite: the name moves on.
    let aside: string;
    let ms = Date.now();
    do aside = join(dir, `audit-${new Date(ms++).toISOString().replace(/[:.]/g, '-')}-${process.pid}.jsonl`);
    while (existsSync(aside));
    renameSync(file, aside);
  });
  return true;
}

/** Deletes rotated files last written more than audit.keepDays ago. */
export function sweepOld(dir: string, keepDays: number): void {
  const before = Date.now() - keepDays * 86_400_000;
  for (const file of auditFiles(dir)) {
    if (file.endsWith(AUDIT_FILE)) continue;
    try {
      if (statSync(file).mtimeMs < before) unlinkSync(file);
    } catch {
      // Gone already (another hub swept it).
    }
  }
}
