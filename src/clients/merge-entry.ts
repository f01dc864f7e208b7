import { isDeepStrictEqual } from 'node:util';

type Table = Record<string, unknown>;

const isTable = (value: unknown): value is Table =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// Plain JSON values: smol-toml builds null-prototype objects, which isDeepStrictEqual tells
// apart from `{}`, so an unchanged codex entry looked changed (and got a new backup) every run.
const plain = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

export const sameEntry = (a: unknown, b: unknown): boolean => isDeepStrictEqual(plain(a), plain(b));

/**
 * The hub entry to store, given the one already in the file: hub owns how it is started
 * (command, args, type); every other field a person added (env such as HUB_TOOL_NAMES, cwd,
 * timeout, trust...) is kept, in its place. Env keys hub suggests are added only when missing.
 */
export function mergeEntry(previous: unknown, fresh: Table): Table {
  if (!isTable(previous)) return fresh;
  const merged: Table = { ...(plain(previous) as Table) };
  for (const [key, value] of Object.entries(fresh)) {
    const mine = merged[key];
    merged[key] = key === 'env' && isTable(mine) && isTable(value) ? { ...value, ...mine } : value;
  }
  return merged;
}
