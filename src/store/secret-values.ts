// The store's secret values (servers' env and headers) and masking them wherever they appear.
import type { StoreData } from './schema.js';

// The dashboard never sends a secret, nor does the audit log (store/audit/log.ts) keep one. Views
// already carry env keys only (process/view.ts) and
// server summaries no env or headers; as a second line of defence every body is scrubbed of the
// values the store holds as secrets (server env values, header values), wherever they appear.

// Shorter values ("1", "true") are settings, not secrets, and would mangle unrelated text.
const MIN_SECRET_LENGTH = 6;
export const MASK = '***';

export function secretValues(data: StoreData): string[] {
  const values = new Set<string>();
  for (const record of Object.values(data.servers)) {
    for (const value of Object.values(record.env ?? {})) values.add(value);
    for (const value of Object.values(record.remote?.headers ?? {})) values.add(value);
  }
  return [...values].filter(value => value.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

/** text with every secret value replaced by MASK. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const value of secrets) if (out.includes(value)) out = out.split(value).join(MASK);
  // A value JSON-escaped in the body ("a\"b") is also masked.
  for (const value of secrets) {
    const escaped = JSON.stringify(value).slice(1, -1);
    if (escaped !== value && out.includes(escaped)) out = out.split(escaped).join(MASK);
  }
  return out;
}
