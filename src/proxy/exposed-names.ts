import { createHash } from 'node:crypto';

export const MAX_NAME_LENGTH = 40;

/** Hub's own tools in both spellings: a proxied tool may never take one of these names. */
export const HUB_TOOL_NAMES: ReadonlySet<string> = new Set(
  [
    'registry.search',
    'registry.install',
    'registry.list',
    'registry.uninstall',
    'registry.call',
    'start_process',
    'list_processes',
    'get_process_logs',
    'kill_process',
    'get_free_port',
  ].flatMap(name => [name, name.replaceAll('.', '_')]),
);

// `__` is a client-side separator (mcp__hub__tool): never emit it.
const collapse = (name: string): string => name.replace(/_{2,}/g, '_');
const trimEnd = (name: string): string => name.replace(/[._-]+$/, '');

/** `text` cut so that `text + suffix` fits the budget, with no `__` at the seam. */
function fit(text: string, suffix: string): string {
  return collapse(trimEnd(text.slice(0, MAX_NAME_LENGTH - suffix.length)) + suffix);
}

const shortHash = (server: string, tool: string): string =>
  createHash('sha256').update(`${server}/${tool}`).digest('hex').slice(0, 6);

/** The dotted name for a child's tool before collision handling: sanitized, collapsed, within 40 chars. */
export function baseDottedName(server: string, tool: string): string {
  const name = collapse(`${server}.${tool.replace(/[^A-Za-z0-9_.-]/g, '_')}`);
  return name.length <= MAX_NAME_LENGTH ? name : fit(name, `_${shortHash(server, tool)}`);
}

/** The underscore spelling of a dotted name: every dot becomes `_`, still without `__`. */
export const underscoreName = (dotted: string): string => collapse(dotted.replaceAll('.', '_'));

/** First of name, name_2, name_3… (each within 40 chars) that is not taken; marks it taken. */
export function claimName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n += 1) candidate = fit(name, `_${n}`);
  taken.add(candidate);
  return candidate;
}
