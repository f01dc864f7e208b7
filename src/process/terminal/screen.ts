// A tty process's screen, rendered by a headless xterm from the end of its log.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import xterm from '@xterm/headless';
import type { TtySize } from '../keeper/pty.js';

// The screen of a tty process, rendered by xterm.js's headless terminal from the end of its log,
// so any hub (not only the one that started it) can show it. Only the last SCREEN_BYTES are fed:
// enough for any full redraw, and a bounded cost on a log of any size.
const SCREEN_BYTES = 512 * 1024;

export interface Screen {
  readonly lines: string[];
  /** Zero-based cursor position. */
  readonly cursor: { readonly row: number; readonly col: number };
  readonly title: string;
  /** A full-screen program (vi, less, top) is showing its alternate screen. */
  readonly alternate: boolean;
}

function readTail(file: string): Buffer {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return Buffer.alloc(0);
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, SCREEN_BYTES);
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, size - length);
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

export async function renderScreen(logFile: string, size: TtySize): Promise<Screen> {
  const terminal = new xterm.Terminal({ cols: size.cols, rows: size.rows, scrollback: 0, allowProposedApi: true });
  let title = '';
  const titles = terminal.onTitleChange(value => (title = value));
  try {
    const bytes = readTail(logFile);
    await new Promise<void>(resolve => terminal.write(bytes, resolve));
    const buffer = terminal.buffer.active;
    const lines: string[] = [];
    // translateToString(true) trims only cells never written; spaces a program painted (vi's
    // `~` rows, a cleared status line) are trimmed too.
    for (let row = 0; row < size.rows; row += 1)
      lines.push((buffer.getLine(buffer.viewportY + row)?.translateToString(true) ?? '').replace(/ +$/, ''));
    // The blank rows under the text say nothing (25 of a REPL's 30): rows and cursor keep the size.
    while (lines.length > 0 && lines.at(-1) === '') lines.pop();
    return {
      lines,
      cursor: { row: buffer.cursorY, col: buffer.cursorX },
      title,
      alternate: buffer.type === 'alternate',
    };
  } finally {
    titles.dispose();
    terminal.dispose();
  }
}
