// `hub audit -f`: audit lines as they are appended, across rotations, until aborted.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { matchesAudit, parseAuditLine, type AuditEntry, type AuditFilter } from './read.js';
import { AUDIT_FILE } from './rotate.js';

const POLL_MS = 250;
const READ_BYTES = 256 * 1024;

/**
 * `hub audit -f`: the lines appended from now on, as they come (polled: hubs append from other
 * processes), across rotations (a new file is read from its start). Ends when `signal` aborts.
 */
export async function followAudit(
  dir: string,
  filter: AuditFilter,
  onEntry: (entry: AuditEntry, line: string) => void,
  signal: AbortSignal,
): Promise<void> {
  const file = join(dir, AUDIT_FILE);
  const stat = () => {
    try {
      return statSync(file);
    } catch {
      return undefined;
    }
  };
  let ino = stat()?.ino;
  let offset = stat()?.size ?? 0;
  let partial = '';
  let decoder = new StringDecoder('utf8');
  const buffer = Buffer.alloc(READ_BYTES);
  while (!signal.aborted) {
    await new Promise<void>(resolve => {
      const stop = () => (clearTimeout(timer), resolve());
      const timer = setTimeout(() => (signal.removeEventListener('abort', stop), resolve()), POLL_MS);
      signal.addEventListener('abort', stop, { once: true });
    });
    const now = stat();
    if (now === undefined) continue;
    if (now.ino !== ino) {
      ino = now.ino;
      offset = 0;
      partial = '';
      decoder = new StringDecoder('utf8');
    }
    if (now.size <= offset) continue;
    const fd = openSync(file, 'r');
    try {
      let read: number;
      while ((read = readSync(fd, buffer, 0, READ_BYTES, offset)) > 0) {
        offset += read;
        const lines = (partial + decoder.write(buffer.subarray(0, read))).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          const entry = parseAuditLine(line);
          if (entry && matchesAudit(entry, filter)) onEntry(entry, line);
        }
      }
    } finally {
      closeSync(fd);
    }
  }
}
