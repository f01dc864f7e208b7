// Raw log bytes since a logical cursor, and where the log ends now (hub attach).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { logicalEnd, readLayout, toLogical, toPhysical } from './marker.js';

/** Raw bytes written since a logical cursor (hub attach streams them to a terminal), at most maxBytes. */
export function readLogBytes(file: string, cursor: number, maxBytes: number): { bytes: Buffer; nextCursor: number } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return { bytes: Buffer.alloc(0), nextCursor: cursor };
  }
  try {
    const layout = readLayout(fd, fstatSync(fd).size);
    const from = cursor > logicalEnd(layout) || cursor < layout.droppedBytes ? layout.droppedBytes : cursor;
    const start = Math.max(layout.markerBytes, toPhysical(layout, from));
    const bytes = Buffer.alloc(Math.max(0, Math.min(maxBytes, layout.size - start)));
    const read = bytes.length > 0 ? readSync(fd, bytes, 0, bytes.length, start) : 0;
    return { bytes: bytes.subarray(0, read), nextCursor: toLogical(layout, start + read) };
  } finally {
    closeSync(fd);
  }
}

/** The logical end of a log now: where output written from here on starts. */
export function logCursorNow(file: string): number {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return 0;
  }
  try {
    return logicalEnd(readLayout(fd, fstatSync(fd).size));
  } finally {
    closeSync(fd);
  }
}
