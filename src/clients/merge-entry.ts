// hub's entry merged with the one in a client's file: hub owns the launch keys, the rest stays.
import { isDeepStrictEqual } from 'node:util';

type Table = Record<string, unknown>;

const isTable = (value: unknown): value is Table =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// Plain JSON values: smol-toml builds null-prototype objects, which isDeepStrictEqual tells
// apart from `{}`, so an unchanged codex entry looked changed (and got a new backup) every run.
const plain = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

export const sameEntry = (a: unknown, b: unknown): boolean => isDeepStrictEqual(plain(a), plain(b));

/** How a client reaches hub (stdio or URL): hub owns these keys, whichever form it writes. */
export const LAUNCH_KEYS = [
  'command',
  'args',
  'type',
  'url',
  'serverUrl',
  'httpUrl',
  'headers',
  'http_headers',
  'env_http_headers',
  'bearer_token_env_var',
];
/** A URL entry has no process to start: env and cwd mean nothing there (Codex refuses url + env). */
export const URL_OWNED_KEYS = [...LAUNCH_KEYS, 'env', 'cwd'];

/**
 * The hub entry to store, given the one already in the file: hub owns how it is started
 * (command, args, type); every other field a person added (env such as HUB_TOOL_NAMES, cwd,
 * timeout, trust...) is kept, in its place. Env keys hub suggests are added only when missing.
 */
export function mergeEntry(previous: unknown, fresh: Table, owned: readonly string[] = LAUNCH_KEYS): Table {
  if (!isTable(previous)) return fresh;
  const merged: Table = { ...(plain(previous) as Table) };
  // Switching between stdio and URL: the other form's keys go, or the entry would carry both.
  for (const key of owned) if (!(key in fresh)) delete merged[key];
  for (const [key, value] of Object.entries(fresh)) {
    const mine = merged[key];
    merged[key] = key === 'env' && isTable(mine) && isTable(value) ? { ...value, ...mine } : value;
  }
  return merged;
}
