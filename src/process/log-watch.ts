// Running processes watched for new output and their end, coalesced, for events and resources.
import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';
import type { HubPaths } from '../core/paths.js';
import type { ProcessRecord } from '../store/schema.js';
import { isGroupRunning } from './lifecycle/reconcile.js';

// At most one update per process per COALESCE_MS: a flood of output is a few updates a second.
export const COALESCE_MS = 250;
// The safety net behind the folder watch (no inotify, a keeper killed before it wrote its exit
// file): one shared timer, only while something is watched.
export const CHECK_EVERY_MS = 1_000;

export interface LogWatchOptions {
  readonly paths: HubPaths;
  /** New output in the process's log, or (ended: true, the last call for it) the process ended. */
  readonly onUpdate: (id: string, ended: boolean) => void;
  readonly coalesceMs?: number;
  readonly checkEveryMs?: number;
}

export interface LogWatch {
  /** Watch a running process until it ends or remove(id); watching twice is watching once. */
  add(record: ProcessRecord): void;
  remove(id: string): void;
  readonly size: number;
  close(): void;
}

interface Entry {
  readonly record: ProcessRecord;
  stamp: string;
  dirty: boolean;
  ended: boolean;
  lastSentMs: number;
  timer: NodeJS.Timeout | undefined;
}

function stampOf(file: string): string {
  const info = statSync(file, { throwIfNoEntry: false });
  return info ? `${info.ino}:${info.size}:${info.mtimeMs}` : 'none';
}

// Watches the logs folder (the log grows in place; the exit file arrives by rename) and never
// reads a log: one check is a stat, an existsSync and the keeper's /proc identity, and a burst
// of file events costs one check per coalescing window.
export function createLogWatch(options: LogWatchOptions): LogWatch {
  const { paths, onUpdate } = options;
  const coalesceMs = options.coalesceMs ?? COALESCE_MS;
  const checkEveryMs = options.checkEveryMs ?? CHECK_EVERY_MS;
  const entries = new Map<string, Entry>();
  let folder: FSWatcher | undefined;
  let ticker: NodeJS.Timeout | undefined;

  const flush = (entry: Entry): void => {
    entry.timer = undefined;
    check(entry, false);
    if (!entry.dirty) return;
    entry.dirty = false;
    entry.lastSentMs = Date.now();
    if (entry.ended) remove(entry.record.id);
    onUpdate(entry.record.id, entry.ended);
  };

  const schedule = (entry: Entry): void => {
    if (entry.timer) return;
    entry.timer = setTimeout(() => flush(entry), Math.max(0, entry.lastSentMs + coalesceMs - Date.now()));
    entry.timer.unref();
  };

  function check(entry: Entry, send = true): void {
    const stamp = stampOf(entry.record.logFile);
    if (stamp !== entry.stamp) {
      entry.stamp = stamp;
      entry.dirty = true;
    }
    // The exit file is written once the command is gone; the keeper itself may live a moment longer.
    if (!entry.ended && (existsSync(paths.processExitFile(entry.record.id)) || !isGroupRunning(entry.record, paths))) {
      entry.ended = true;
      entry.dirty = true;
    }
    if (send && entry.dirty) schedule(entry);
  }

  const onFolderEvent = (_event: string, name: string | Buffer | null): void => {
    if (typeof name !== 'string') {
      // No file name (some platforms): look at every watched process.
      for (const entry of entries.values()) if (!entry.timer) check(entry);
      return;
    }
    const dot = name.indexOf('.');
    const entry = entries.get(dot < 0 ? name : name.slice(0, dot));
    // A pending update will look at the file when it is sent.
    if (entry && !entry.timer) check(entry);
  };

  const start = (): void => {
    ticker ??= setInterval(() => {
      for (const entry of entries.values()) if (!entry.timer) check(entry);
    }, checkEveryMs);
    ticker.unref();
    if (folder) return;
    try {
      folder = watch(paths.processLogsDir, onFolderEvent);
      folder.unref();
      folder.on('error', () => {
        folder?.close();
        folder = undefined;
      });
    } catch {
      // No inotify (or no folder yet): the timer alone notices output, a second late at most.
    }
  };

  const stopIfIdle = (): void => {
    if (entries.size > 0) return;
    clearInterval(ticker);
    ticker = undefined;
    folder?.close();
    folder = undefined;
  };

  function remove(id: string): void {
    const entry = entries.get(id);
    if (!entry) return;
    clearTimeout(entry.timer);
    entries.delete(id);
    stopIfIdle();
  }

  return {
    add(record) {
      if (entries.has(record.id)) return;
      const entry: Entry = {
        record,
        stamp: stampOf(record.logFile),
        dirty: false,
        ended: false,
        lastSentMs: 0,
        timer: undefined,
      };
      entries.set(record.id, entry);
      start();
      // Ended between the read that found it running and now: its final update goes out.
      check(entry);
    },
    remove,
    get size() {
      return entries.size;
    },
    close() {
      for (const entry of entries.values()) clearTimeout(entry.timer);
      entries.clear();
      stopIfIdle();
    },
  };
}
