// A running process's log kept under its cap: the oldest part cut in place behind a marker line.
import { closeSync, fstatSync, ftruncateSync, openSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { markerLine, readLayout } from '../logs/marker.js';

const COPY_CHUNK_BYTES = 1024 * 1024;
const NEWLINE_SEARCH_BYTES = 64 * 1024;
const CUT_LOCK_STALE_MS = 60_000;

// Keeps a log under capBytes while its process runs: when it is over, the oldest part is cut in
// place and the newest half kept, behind a marker line "[hub: N bytes of older output truncated]"
// (N counts every byte cut so far, so cursors stay meaningful). The writer holds the file with
// O_APPEND, so its next write lands at the new end after the cut; never a hole. Bytes written
// while the cut runs are carried along (the copy repeats until the size is stable); only a write
// landing between the last size check and the truncate can be lost, a window of microseconds.
// Returns the bytes cut (0 when under the cap).
export function enforceLogCap(file: string, capBytes: number): number {
  // One cutter at a time: a hub and the keeper (log-cap-main.ts) may both find the log over.
  const lock = `${file}.cut`;
  if (!takeCutLock(lock)) return 0;
  let fd: number;
  try {
    fd = openSync(file, 'r+');
  } catch {
    rmSync(lock, { force: true });
    return 0;
  }
  try {
    const size = fstatSync(fd).size;
    if (size <= capBytes) return 0;
    const layout = readLayout(fd, size);
    // Keep the newest half, starting at a line boundary when one is near.
    let keepFrom = size - Math.floor(capBytes / 2);
    const probe = Buffer.alloc(Math.min(NEWLINE_SEARCH_BYTES, size - keepFrom));
    const read = readSync(fd, probe, 0, probe.length, keepFrom);
    const newline = probe.subarray(0, read).indexOf(0x0a);
    if (newline >= 0) keepFrom += newline + 1;
    const cut = keepFrom - layout.markerBytes;
    const marker = Buffer.from(markerLine(layout.droppedBytes + cut));
    writeSync(fd, marker, 0, marker.length, 0);
    // Copy forwards: the destination is always before the source, so nothing is overwritten unread.
    const chunk = Buffer.alloc(COPY_CHUNK_BYTES);
    let source = keepFrom;
    let target = marker.length;
    let end = size;
    for (;;) {
      while (source < end) {
        const length = readSync(fd, chunk, 0, Math.min(chunk.length, end - source), source);
        if (length === 0) break;
        writeSync(fd, chunk, 0, length, target);
        source += length;
        target += length;
      }
      const now = fstatSync(fd).size;
      if (now <= end) break;
      end = now;
    }
    ftruncateSync(fd, target);
    return cut;
  } finally {
    closeSync(fd);
    rmSync(lock, { force: true });
  }
}

// O_EXCL create; a lock older than CUT_LOCK_STALE_MS was left by a cutter that died mid-cut.
function takeCutLock(lock: string): boolean {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      closeSync(openSync(lock, 'wx', 0o600));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return false;
      const info = statSync(lock, { throwIfNoEntry: false });
      if (info && Date.now() - info.mtimeMs < CUT_LOCK_STALE_MS) return false;
      rmSync(lock, { force: true });
    }
  }
  return false;
}
