// db.json watched for another hub's changes: its stamp, and a debounced call when it is replaced.
import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

// Another hub sharing HUB_HOME may install or remove servers. db.json's stamp (inode, size,
// mtime) tells when to re-read it; it is replaced by rename, so the folder is what is watched.
export interface DbWatch {
  /** True when db.json changed since the last mark(). */
  changed(): boolean;
  /** Remember db.json as it is now (call before reading it). */
  mark(): void;
  close(): void;
}

function stampOf(file: string): string {
  try {
    const info = statSync(file);
    return `${info.ino}:${info.size}:${info.mtimeMs}`;
  } catch {
    return 'none';
  }
}

/** Calls onChange (debounced: a burst of writes is one call) whenever db.json is replaced. */
export function watchDb(file: string, onChange: () => void, debounceMs = 100): DbWatch {
  let seen = stampOf(file);
  let watcher: FSWatcher | undefined;
  let pending: NodeJS.Timeout | undefined;
  try {
    watcher = watch(dirname(file), (_event, name) => {
      if (name !== basename(file) || pending) return;
      pending = setTimeout(() => {
        pending = undefined;
        onChange();
      }, debounceMs);
      pending.unref();
    });
    watcher.unref();
    watcher.on('error', () => watcher?.close());
  } catch {
    // No folder yet, or no inotify: callers still check changed() on tools/list and calls.
  }
  return {
    changed: () => stampOf(file) !== seen,
    mark: () => {
      seen = stampOf(file);
    },
    close: () => {
      watcher?.close();
      clearTimeout(pending);
    },
  };
}
