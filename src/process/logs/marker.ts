// The log cap's marker line and logical cursors that stay valid across cuts.
import { readSync } from 'node:fs';

// When the log cap cuts the oldest part of a log, its first line becomes this marker, carrying
// the total number of bytes ever cut. A cursor is a logical byte offset in everything the
// process wrote: physical offset - marker length + bytes cut. So cursors stay valid across cuts.
const MARKER_PATTERN = /^\[hub: (\d+) bytes of older output truncated\]\n/;
const MARKER_PROBE_BYTES = 96;

export const markerLine = (droppedBytes: number): string => `[hub: ${droppedBytes} bytes of older output truncated]\n`;

export interface LogLayout {
  /** Bytes cut from the start of the log so far. */
  readonly droppedBytes: number;
  /** Length of the marker line at the start of the file (0 when never cut). */
  readonly markerBytes: number;
  /** Physical size of the file. */
  readonly size: number;
}

export function readLayout(fd: number, size: number): LogLayout {
  const probe = Buffer.alloc(Math.min(MARKER_PROBE_BYTES, size));
  const read = probe.length > 0 ? readSync(fd, probe, 0, probe.length, 0) : 0;
  const match = MARKER_PATTERN.exec(probe.subarray(0, read).toString('latin1'));
  if (!match) return { droppedBytes: 0, markerBytes: 0, size };
  return { droppedBytes: Number(match[1]), markerBytes: match[0].length, size };
}

export const toLogical = (layout: LogLayout, physical: number): number =>
  physical <= layout.markerBytes ? layout.droppedBytes : layout.droppedBytes + physical - layout.markerBytes;

export const toPhysical = (layout: LogLayout, logical: number): number =>
  logical - layout.droppedBytes + layout.markerBytes;

export const logicalEnd = (layout: LogLayout): number => toLogical(layout, layout.size);
