// Hand-written on purpose: reads the tail of a log file backwards in fixed chunks, so a call
// costs the same on a 10 KB or a 10 GB log, and it follows the keeper's in-place log cap
// (logs/marker.ts), which no tail library knows.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { overstrike, stripAnsi } from './ansi.js';
import type { LineMatcher } from './line-match.js';
import { logicalEnd, readLayout, toLogical, toPhysical, type LogLayout } from './marker.js';

const CHUNK_BYTES = 64 * 1024;
// grep may have to look further back than the lines it returns; this bounds the cost of a call.
export const GREP_SCAN_BYTES = 16 * 1024 * 1024;

export interface LogReadOptions {
  readonly lines: number;
  readonly grep?: LineMatcher | undefined;
  readonly raw?: boolean | undefined;
  /** Most bytes of log text to return. */
  readonly maxBytes: number;
}

export interface LogSlice {
  readonly lines: string[];
  /** Logical offset right after the returned output: pass it back as cursor. */
  readonly nextCursor: number;
  /** More output exists than was returned (older for a tail, newer for a cursor read). */
  readonly truncated: boolean;
  /** The cursor pointed at output the log cap has since cut (or past the end of a reset log). */
  readonly cursorReset: boolean;
  /** Bytes cut from the start of the log by the cap so far. */
  readonly droppedBytes: number;
  readonly scannedBytes: number;
}

// As a terminal shows the line: no escape sequences, and `\r` rewrites (a progress bar) leave
// only what is on screen. raw: the bytes as written.
const render = (bytes: Buffer, raw: boolean | undefined): string => {
  const text = bytes.toString('utf8');
  return raw ? text : overstrike(stripAnsi(text));
};

function withLog<T>(file: string, fn: (fd: number, layout: LogLayout) => T): T | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return fn(fd, readLayout(fd, fstatSync(fd).size));
  } finally {
    closeSync(fd);
  }
}

const EMPTY: LogSlice = {
  lines: [],
  nextCursor: 0,
  truncated: false,
  cursorReset: false,
  droppedBytes: 0,
  scannedBytes: 0,
};

// The last `lines` lines (matching grep), read backwards in fixed chunks from the end: the cost
// depends on what is returned (bounded by maxBytes, or GREP_SCAN_BYTES with grep), never on the
// size of the file.
export function tailLog(file: string, options: LogReadOptions): LogSlice {
  return (
    withLog(file, (fd, layout) => {
      const budget = options.grep ? GREP_SCAN_BYTES : options.maxBytes;
      const found: string[] = [];
      let foundBytes = 0;
      let position = layout.size;
      let carry = Buffer.alloc(0);
      let scanned = 0;
      let full = false;
      // A clipped line (its start not read) is marked "…" after rendering: a `\r` frame would hide it.
      const take = (bytes: Buffer, cut = false): void => {
        const line = `${cut ? '…' : ''}${render(bytes, options.raw)}`;
        if (options.grep && !options.grep.test(line)) return;
        found.push(line);
        foundBytes += Buffer.byteLength(line) + 1;
        full = found.length >= options.lines || foundBytes >= options.maxBytes;
      };
      // A final newline ends the last line; it does not start an empty one.
      let skipFinalNewline = true;
      // A line longer than maxBytes keeps only its end ("…" + last maxBytes), so the carry
      // never grows past maxBytes and a file of one huge line costs no more than any other.
      let clipped = false;
      while (position > 0 && !full && scanned < budget) {
        const length = Math.min(CHUNK_BYTES, position, budget - scanned);
        let chunk = Buffer.alloc(length);
        readSync(fd, chunk, 0, length, position - length);
        position -= length;
        scanned += length;
        if (clipped) {
          const newline = chunk.lastIndexOf(0x0a);
          if (newline < 0) continue;
          take(carry, true);
          carry = Buffer.alloc(0);
          clipped = false;
          chunk = chunk.subarray(0, newline + 1);
          skipFinalNewline = true;
          if (full) {
            carry = Buffer.from(chunk.subarray(0, newline));
            break;
          }
        }
        let buffer = carry.length > 0 ? Buffer.concat([chunk, carry]) : chunk;
        if (skipFinalNewline && buffer.length > 0) {
          skipFinalNewline = false;
          if (buffer[buffer.length - 1] === 0x0a) buffer = buffer.subarray(0, -1);
        }
        let end = buffer.length;
        for (
          let index = buffer.lastIndexOf(0x0a, end - 1);
          index >= 0 && !full;
          index = buffer.lastIndexOf(0x0a, end - 1)
        ) {
          take(buffer.subarray(index + 1, end));
          end = index;
          if (end === 0) break;
        }
        carry = Buffer.from(buffer.subarray(0, end));
        if (carry.length > options.maxBytes) {
          carry = carry.subarray(carry.length - options.maxBytes);
          clipped = true;
        }
      }
      // Reached the start of the file: what is left is the first line.
      if (!full && position === 0 && carry.length > 0) {
        take(carry, clipped);
        carry = Buffer.alloc(0);
      } else if (found.length === 0 && carry.length > 0) {
        // The budget ran out inside one line (a `\r` progress bar that never ends its line):
        // its end is the output, shown as a tail, never as "no output".
        take(carry.subarray(Math.max(0, carry.length - options.maxBytes)), true);
      }
      const truncated = position > 0 || carry.length > 0;
      return {
        lines: found.reverse(),
        nextCursor: logicalEnd(layout),
        truncated,
        cursorReset: false,
        droppedBytes: layout.droppedBytes,
        scannedBytes: scanned,
      };
    }) ?? EMPTY
  );
}

export interface CursorReadOptions extends LogReadOptions {
  readonly cursor: number;
  /** Hold back a trailing line without its newline (the process may still be writing it). */
  readonly holdPartialLine: boolean;
}

// Output written since `cursor` (a logical offset from next_cursor), oldest first, at most
// `lines` lines and maxBytes bytes; next_cursor continues exactly where this read stopped.
export function readLogSince(file: string, options: CursorReadOptions): LogSlice {
  return (
    withLog(file, (fd, layout) => {
      const end = logicalEnd(layout);
      let cursor = options.cursor;
      let cursorReset = false;
      if (cursor > end) {
        // The log was replaced or emptied since: start again from its beginning.
        cursor = layout.droppedBytes;
        cursorReset = true;
      } else if (cursor < layout.droppedBytes) {
        cursor = layout.droppedBytes;
        cursorReset = true;
      }
      const start = toPhysical(layout, cursor);
      const length = Math.min(layout.size - start, options.maxBytes);
      const buffer = Buffer.alloc(Math.max(0, length));
      if (length > 0) readSync(fd, buffer, 0, length, start);
      const lines: string[] = [];
      let consumed = 0;
      let full = false;
      while (consumed < buffer.length && !full) {
        const newline = buffer.indexOf(0x0a, consumed);
        if (newline < 0) {
          // A line without its newline: cut by maxBytes (the next read starts at it), or still
          // being written (held back while the process runs), unless it alone fills the read.
          const atFileEnd = start + buffer.length >= layout.size;
          const mayComplete = !atFileEnd || options.holdPartialLine;
          if (mayComplete && (consumed > 0 || buffer.length < options.maxBytes)) break;
        }
        const lineEnd = newline < 0 ? buffer.length : newline;
        const line = render(buffer.subarray(consumed, lineEnd), options.raw);
        consumed = newline < 0 ? buffer.length : newline + 1;
        if (options.grep && !options.grep.test(line)) continue;
        lines.push(line);
        full = lines.length >= options.lines;
      }
      const nextCursor = toLogical(layout, start + consumed);
      return {
        lines,
        nextCursor,
        truncated: nextCursor < end,
        cursorReset,
        droppedBytes: layout.droppedBytes,
        scannedBytes: consumed,
      };
    }) ?? { ...EMPTY, nextCursor: options.cursor, cursorReset: options.cursor > 0 }
  );
}
