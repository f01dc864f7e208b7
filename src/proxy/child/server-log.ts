// A child's stderr log: capped, marked at each start, and its latest run's lines read back.
import { closeSync, fstatSync, ftruncateSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';

export const SERVER_LOG_CAP_BYTES = 10 * 1024 * 1024;
/** Written before each start, so a tail shows only the latest run. */
export const START_MARKER = '--- hub: starting ';
const MARKER = '--- hub: older log lines removed to keep this file under its size cap ---\n';

/** Appends a child's stderr to its log file (0600), keeping the newest part when over the cap. */
export class ServerLog {
  #fd: number;
  #size: number;

  constructor(
    readonly file: string,
    readonly capBytes = SERVER_LOG_CAP_BYTES,
  ) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    this.#fd = openSync(file, 'a+', 0o600);
    this.#size = fstatSync(this.#fd).size;
  }

  write(chunk: Buffer | string): void {
    if (this.#fd < 0) return;
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    try {
      writeSync(this.#fd, buffer);
      this.#size += buffer.length;
      if (this.#size > this.capBytes) this.#trim();
    } catch {
      // A full disk must not take the proxy down; stderr is best effort.
    }
  }

  // Keeps the newest half: rare, so a synchronous rewrite is fine.
  #trim(): void {
    const keep = Math.floor(this.capBytes / 2);
    const tail = Buffer.alloc(keep);
    const read = readSync(this.#fd, tail, 0, keep, this.#size - keep);
    const start = tail.indexOf(10) + 1;
    const kept = Buffer.concat([Buffer.from(MARKER), tail.subarray(start, read)]);
    ftruncateSync(this.#fd, 0);
    // The fd is in append mode: the write lands at the (now empty) end.
    writeSync(this.#fd, kept);
    this.#size = kept.length;
  }

  close(): void {
    if (this.#fd < 0) return;
    closeSync(this.#fd);
    this.#fd = -1;
  }
}

/** The lines the latest run wrote to a server log, read from its last maxBytes only. */
export async function latestRunLines(file: string, maxBytes: number): Promise<string[]> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return [];
  }
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, maxBytes);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    let lines = buffer.toString('utf8').split('\n');
    if (length < size) lines.shift();
    // Only what the latest run wrote: earlier runs are older news.
    const lastStart = lines.findLastIndex(line => line.startsWith(START_MARKER));
    if (lastStart >= 0) lines = lines.slice(lastStart + 1);
    return lines.map(line => line.trimEnd()).filter(line => line !== '');
  } finally {
    await handle.close();
  }
}

/** The last lines of a server log (at most maxBytes), for error messages. */
export async function logTail(file: string, maxLines = 12, maxBytes = 2048): Promise<string> {
  return (await latestRunLines(file, maxBytes)).slice(-maxLines).join('\n');
}
