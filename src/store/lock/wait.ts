// Waking the waiter whose turn it is when the lock changes (inotify), polling as a backstop.
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

// Wakes the waiter whose turn it is as soon as the lock changes, through inotify on the lock's
// folder, instead of sleeping a guessed interval; polling stays as a backstop for a missed
// event or a system out of inotify watches.

export interface Waker {
  /** Resolves on a change to one of the watched names, or after ms. */
  wait(ms: number): Promise<void>;
  close(): void;
}

export function watchNames(files: string[]): Waker {
  const names = new Set(files.map(file => basename(file)));
  let wake: (() => void) | undefined;
  let changed = false;
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(files[0] ?? '.'), { persistent: false }, (_event, name) => {
      if (name !== null && !names.has(String(name))) return;
      changed = true;
      wake?.();
    });
    watcher.on('error', () => watcher?.close());
  } catch {
    watcher = undefined;
  }
  return {
    wait(ms) {
      if (changed) {
        changed = false;
        return Promise.resolve();
      }
      return new Promise(resolve => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wake = undefined;
          changed = false;
          resolve();
        }
        wake = done;
      });
    },
    close() {
      wake?.();
      watcher?.close();
    },
  };
}
