// Log reading on real files: tail from the end, cursor follow, grep, ANSI stripping, a 200 MB
// file read in bounded chunks, and the log cap cutting the oldest half behind a marker line.
import {
  appendFileSync,
  openSync,
  closeSync,
  ftruncateSync,
  readFileSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { enforceLogCap } from '../../../src/process/keeper/log-cap.js';
import { readLogSince, tailLog } from '../../../src/process/logs/read.js';
import { stripAnsi } from '../../../src/process/logs/ansi.js';
import { makeHubHome } from '../../helpers/home.js';

const MAX = 256 * 1024;
const numbered = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => `line ${from + index}`).join('\n') + '\n';

describe('tailLog', () => {
  test('returns the last N lines, oldest first, and a cursor at the end', async () => {
    const file = join(await makeHubHome(), 'a.log');
    writeFileSync(file, numbered(1, 500));
    const slice = tailLog(file, { lines: 3, maxBytes: MAX });
    expect(slice.lines).toEqual(['line 498', 'line 499', 'line 500']);
    expect(slice.nextCursor).toBe(statSync(file).size);
    expect(slice.truncated).toBe(true);
    expect(tailLog(file, { lines: 1000, maxBytes: MAX }).lines).toHaveLength(500);
    expect(tailLog(file, { lines: 1000, maxBytes: MAX }).truncated).toBe(false);
  });

  test('keeps a last line without newline, empty lines, and multi-byte text across chunk edges', async () => {
    const file = join(await makeHubHome(), 'b.log');
    const long = 'é'.repeat(40_000); // 80 KB of two-byte characters: spans a 64 KB chunk boundary
    writeFileSync(file, `first\n\n${long}\nlast without newline`);
    expect(tailLog(file, { lines: 10, maxBytes: MAX }).lines).toEqual(['first', '', long, 'last without newline']);
  });

  test('grep filters lines and ANSI escapes are stripped unless raw', async () => {
    const file = join(await makeHubHome(), 'c.log');
    writeFileSync(file, `\u001b[32mok\u001b[39m compiled\nerror: boom\r\n\u001b[1mwarn\u001b[22m x\nerror: again\n`);
    expect(tailLog(file, { lines: 10, maxBytes: MAX }).lines).toEqual([
      'ok compiled',
      'error: boom',
      'warn x',
      'error: again',
    ]);
    expect(tailLog(file, { lines: 10, maxBytes: MAX, grep: /^error/ }).lines).toEqual(['error: boom', 'error: again']);
    expect(tailLog(file, { lines: 1, maxBytes: MAX, grep: /^error/ }).lines).toEqual(['error: again']);
    expect(tailLog(file, { lines: 10, maxBytes: MAX, raw: true }).lines[0]).toBe('\u001b[32mok\u001b[39m compiled');
    expect(stripAnsi('\u001b]0;title\u0007plain\u001b[2K\u001b[1G')).toBe('plain');
    // DCS, APC, PM and SOS control strings (7- and 8-bit), terminated or not: the body goes too.
    expect(stripAnsi('a\u001bP1$r0m\u001b\\b\u001b_apc body\u001b\\c\u0090q#0;2\u009cd\u001b^pm\u001b\\e')).toBe(
      'abcde',
    );
    expect(stripAnsi('left\u001bPunterminated sixel data')).toBe('left');
  });

  test('a line longer than the byte cap keeps only its end, marked with …', async () => {
    const file = join(await makeHubHome(), 'long.log');
    writeFileSync(file, `before\n${'x'.repeat(3 * 1024 * 1024)}y\nafter\n`);
    const slice = tailLog(file, { lines: 3, maxBytes: 1000 });
    expect(slice.lines.at(-1)).toBe('after');
    expect(slice.lines.length).toBeLessThanOrEqual(2);
    const grepped = tailLog(file, { lines: 3, maxBytes: 1000, grep: /./ });
    expect(grepped.lines).toEqual([`…${'x'.repeat(999)}y`, 'after']);
    expect(grepped.truncated).toBe(true);
    expect(tailLog(file, { lines: 3, maxBytes: 4096, grep: /e/ }).lines).toEqual(['before', 'after']);
  });

  test('a missing log reads as empty', async () => {
    const slice = tailLog(join(await makeHubHome(), 'none.log'), { lines: 5, maxBytes: MAX });
    expect(slice).toMatchObject({ lines: [], nextCursor: 0 });
  });

  test('a 200 MB log is tailed by reading only its end', async () => {
    const file = join(await makeHubHome(), 'big.log');
    // Sparse: 200 MB of NULs (never written to disk) then real lines at the end.
    const fd = openSync(file, 'w');
    ftruncateSync(fd, 200 * 1024 * 1024);
    writeSync(fd, numbered(1, 2000), 200 * 1024 * 1024);
    closeSync(fd);
    const slice = tailLog(file, { lines: 100, maxBytes: MAX });
    expect(slice.lines[99]).toBe('line 2000');
    expect(slice.scannedBytes).toBeLessThanOrEqual(MAX);
    // grep scans a bounded window too, however big the file.
    const grepped = tailLog(file, { lines: 5, maxBytes: MAX, grep: /no such text/ });
    expect(grepped.lines).toEqual([]);
    expect(grepped.scannedBytes).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(grepped.truncated).toBe(true);
  });
});

describe('readLogSince', () => {
  test('returns only what was written after the cursor, holding back an unfinished line', async () => {
    const file = join(await makeHubHome(), 'd.log');
    writeFileSync(file, numbered(1, 5));
    const first = tailLog(file, { lines: 100, maxBytes: MAX });
    appendFileSync(file, 'line 6\nline 7\npartial');
    const next = readLogSince(file, { cursor: first.nextCursor, lines: 100, maxBytes: MAX, holdPartialLine: true });
    expect(next.lines).toEqual(['line 6', 'line 7']);
    appendFileSync(file, ' done\n');
    const after = readLogSince(file, { cursor: next.nextCursor, lines: 100, maxBytes: MAX, holdPartialLine: true });
    expect(after.lines).toEqual(['partial done']);
    expect(
      readLogSince(file, { cursor: after.nextCursor, lines: 100, maxBytes: MAX, holdPartialLine: true }).lines,
    ).toEqual([]);
  });

  test('a cursor read is bounded by lines and bytes, and next_cursor continues exactly', async () => {
    const file = join(await makeHubHome(), 'e.log');
    writeFileSync(file, numbered(1, 1000));
    const first = readLogSince(file, { cursor: 0, lines: 10, maxBytes: MAX, holdPartialLine: false });
    expect(first.lines).toEqual(numbered(1, 10).trim().split('\n'));
    expect(first.truncated).toBe(true);
    const second = readLogSince(file, {
      cursor: first.nextCursor,
      lines: 10_000,
      maxBytes: 100,
      holdPartialLine: false,
      grep: /5$/,
    });
    expect(second.lines).toEqual(['line 15']);
    expect(second.nextCursor).toBeLessThanOrEqual(first.nextCursor + 100);
  });

  test('a cursor past the end of a reset log restarts from the beginning and says so', async () => {
    const file = join(await makeHubHome(), 'f.log');
    writeFileSync(file, 'new\n');
    const slice = readLogSince(file, { cursor: 10_000, lines: 10, maxBytes: MAX, holdPartialLine: false });
    expect(slice).toMatchObject({ lines: ['new'], cursorReset: true });
  });
});

describe('enforceLogCap', () => {
  test('cuts the oldest part, keeps the newest half behind a marker, and cursors stay logical', async () => {
    const file = join(await makeHubHome(), 'g.log');
    writeFileSync(file, numbered(1, 20_000)); // ~210 KB
    const sizeBefore = statSync(file).size;
    const cursor = tailLog(file, { lines: 1, maxBytes: MAX }).nextCursor;
    expect(enforceLogCap(file, 1_000_000)).toBe(0);
    const cut = enforceLogCap(file, 100 * 1024);
    expect(cut).toBeGreaterThan(0);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith(`[hub: ${cut} bytes of older output truncated]\n`)).toBe(true);
    expect(statSync(file).size).toBeLessThanOrEqual(60 * 1024);
    expect(text.endsWith(numbered(20_000, 20_000))).toBe(true);
    // Whole lines kept after the marker.
    expect(text.split('\n')[1]).toMatch(/^line \d+$/);
    // The end of the log is the same logical offset as before the cut.
    expect(tailLog(file, { lines: 1, maxBytes: MAX }).nextCursor).toBe(sizeBefore);
    appendFileSync(file, 'after cut\n');
    expect(readLogSince(file, { cursor, lines: 10, maxBytes: MAX, holdPartialLine: true }).lines).toEqual([
      'after cut',
    ]);
    // A cursor into the cut part restarts at the oldest kept line.
    const old = readLogSince(file, { cursor: 10, lines: 1, maxBytes: MAX, holdPartialLine: true });
    expect(old.cursorReset).toBe(true);
    expect(old.lines[0]).toMatch(/^line \d+$/);
    // A second cut adds up in the marker.
    appendFileSync(file, numbered(1, 20_000));
    const cutAgain = enforceLogCap(file, 100 * 1024);
    expect(readFileSync(file, 'utf8').split('\n')[0]).toBe(`[hub: ${cut + cutAgain} bytes of older output truncated]`);
  });
});

describe('carriage returns', () => {
  // A progress bar rewrites its line with `\r` thousands of times: the log holds every frame, the
  // terminal shows one. The read returns what the terminal shows.
  const frames = (count: number): string =>
    Array.from({ length: count }, (_, index) => `downloading [${'#'.repeat(index % 40)}] ${index}`).join('\r');

  test('a finished progress bar reads as its last frame, in a tail and after a cursor', async () => {
    const file = join(await makeHubHome(), 'bar.log');
    writeFileSync(file, `start\n${frames(5_000)}\rdone 100%\ncolors \u001b[32mok\u001b[39m\r\nabc\rX\n`);
    expect(statSync(file).size).toBeGreaterThan(MAX / 2);
    const tail = tailLog(file, { lines: 10, maxBytes: MAX });
    expect(tail.lines.at(-1)).toBe('Xbc');
    expect(tail.lines.at(-2)).toBe('colors ok');
    // Only the last frame shows (longer earlier frames show through where it is shorter, as on a screen).
    const bar = tail.lines.at(-3) ?? '';
    expect(bar.startsWith('done 100%')).toBe(true);
    expect(bar.length).toBeLessThan(200);
    const follow = readLogSince(file, { lines: 10, maxBytes: 1024 * 1024, cursor: 0, holdPartialLine: false });
    expect(follow.lines[0]).toBe('start');
    expect(follow.lines[1]?.startsWith('done 100%')).toBe(true);
    expect(follow.lines[1]?.length).toBeLessThan(200);
    // raw keeps the bytes as written.
    expect(tailLog(file, { lines: 1, maxBytes: MAX, raw: true }).lines).toEqual(['abc\rX']);
  });

  test('a bar that never ends its line reads as one frame, not its 256 KB of frames', async () => {
    const file = join(await makeHubHome(), 'open-bar.log');
    writeFileSync(file, `fetching\n${frames(30_000)}`);
    const slice = tailLog(file, { lines: 5, maxBytes: MAX });
    expect(slice.lines.at(-1)).toMatch(/^…downloading \[#*\] 29999 *$/);
    expect(Buffer.byteLength(slice.lines.join('\n'))).toBeLessThan(1_000);
  });
});
