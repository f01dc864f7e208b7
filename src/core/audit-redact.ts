// How much of a call's arguments and texts the audit log keeps: secrets masked, long text cut.
import { createHash } from 'node:crypto';
import { isSecretName, maskSecretText } from './secret-names.js';

// How much of a tool call's arguments the audit log keeps: enough to tell what was asked, never a
// secret, never a file's worth of text. Every line stays well under AUDIT_LINE_MAX (store/audit/log.ts).
const MAX_STRING = 200;
const KEEP_OF_CUT = 80;
const MAX_ARGS_JSON = 2048;
const MAX_DEPTH = 4;
const MAX_ITEMS = 20;
const MASK = '***';

export const shortHash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

// Values a person gave as secrets (servers' env and headers), longest first, then by shape.
function cleanText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const value of secrets) if (out.includes(value)) out = out.split(value).join(MASK);
  return maskSecretText(out);
}

function cut(text: string): string {
  if (text.length <= MAX_STRING) return text;
  return `${text.slice(0, KEEP_OF_CUT)}… [${text.length} chars, sha256 ${shortHash(text)}]`;
}

function clean(value: unknown, secrets: readonly string[], depth: number): unknown {
  if (typeof value === 'string') return cut(cleanText(value, secrets));
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return `[${Array.isArray(value) ? 'array' : 'object'}]`;
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_ITEMS).map(item => clean(item, secrets, depth + 1));
    return value.length > MAX_ITEMS ? [...kept, `… ${value.length - MAX_ITEMS} more`] : kept;
  }
  const out: Record<string, unknown> = {};
  const entries = Object.entries(value as Record<string, unknown>);
  for (const [key, item] of entries.slice(0, MAX_ITEMS * 2))
    out[key] = isSecretName(key) && item !== null && item !== '' ? MASK : clean(item, secrets, depth + 1);
  if (entries.length > MAX_ITEMS * 2) out['…'] = `${entries.length - MAX_ITEMS * 2} more keys`;
  return out;
}

/**
 * A tool call's arguments as the audit log keeps them: values under secret names masked, the
 * store's secret values and secret-shaped text masked, long strings cut to their start and a hash
 * (the same text gives the same hash, so two calls can be compared), and the whole replaced by
 * its size and hash when it is still over 2 KB.
 */
export function auditArgs(args: unknown, secrets: readonly string[]): unknown {
  if (args === undefined) return undefined;
  const kept = clean(args, secrets, 0);
  const json = JSON.stringify(kept);
  if (json.length <= MAX_ARGS_JSON) return kept;
  return { '[cut]': `${json.length} chars`, sha256: shortHash(json) };
}

/** A free text (an error, a command line) as the log keeps it: secrets masked, at most `max` chars. */
export function auditText(text: string, secrets: readonly string[], max = 300): string {
  const out = cleanText(text, secrets);
  return out.length <= max ? out : `${out.slice(0, max)}…`;
}
