// HUB_HOME's JSON files as the cold reader sees them, each read once while the lane holds its reads.
import { readFileSync } from 'node:fs';

// JSON files of HUB_HOME for the zero-dependency cold reader (cold-read.ts): null when missing,
// undefined when unreadable or not JSON.

// While the cold-start lane holds its reads, each file is read and parsed once: it answers several
// lists from one look at the store (tools/<name>.json of 20 servers was read four times).
let held: Map<string, unknown> | undefined;

/** Until the returned release is called, each file is read once and its first reading kept. */
export function holdReads(): () => void {
  const mine = new Map<string, unknown>();
  held = mine;
  return () => {
    if (held === mine) held = undefined;
  };
}

export function readJson(file: string): unknown {
  if (held?.has(file)) return held.get(file);
  const value = readJsonNow(file);
  held?.set(file, value);
  return value;
}

function readJsonNow(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
