// The keeper's exit file read back: exit code, time, the signal it stands for, a crash loop.
import { readFileSync, statSync } from 'node:fs';
import { constants } from 'node:os';

export interface ExitInfo {
  readonly code: number;
  readonly endedAtMs: number;
  /** Set when the code says the command died from a signal (128 + n, as the shell reports it). */
  readonly signal: string | undefined;
  /** Set when the keeper's restart policy gave up after this many restarts in a row (a crash loop). */
  readonly gaveUpAfter: number | undefined;
}

const SIGNAL_NAMES = new Map<number, string>(Object.entries(constants.signals).map(([name, number]) => [number, name]));

export function signalFromCode(code: number): string | undefined {
  return code > 128 && code < 128 + 65 ? SIGNAL_NAMES.get(code - 128) : undefined;
}

/** The keeper's "<code> <epoch ms>[ failed <restarts>]" line, or undefined while the command has not ended (ENOENT). */
export function readExitFile(file: string): ExitInfo | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const [codeText, timeText, failed, countText] = text.trim().split(/\s+/);
  const code = Number(codeText);
  if (!Number.isInteger(code)) return undefined;
  let endedAtMs = Number(timeText);
  // Non-GNU date wrote no milliseconds: the file's mtime is when the keeper wrote it.
  if (!Number.isFinite(endedAtMs) || endedAtMs < 1e12)
    endedAtMs = statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
  const gaveUpAfter = failed === 'failed' ? Number(countText) || 0 : undefined;
  return { code, endedAtMs: Math.round(endedAtMs), signal: signalFromCode(code), gaveUpAfter };
}
