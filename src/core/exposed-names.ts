// The names hub lists for children's tools: sanitized, within 40 characters, collisions resolved.
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
    'registry.configure',
    'tools.search',
    'start_process',
    'list_processes',
    'get_process_logs',
    'kill_process',
    'get_free_port',
    'send_input',
    'get_process_screen',
    'restart_process',
  ].flatMap(name => [name, name.replaceAll('.', '_')]),
);

// `__` is a client-side separator (mcp__hub__tool): never emit it.
const collapse = (name: string): string => name.replace(/_{2,}/g, '_');
const trimEnd = (name: string): string => name.replace(/[._-]+$/, '');
const trimStart = (name: string): string => name.replace(/^[._-]+/, '');
const sanitize = (tool: string): string => collapse(tool.replace(/[^A-Za-z0-9_.-]/g, '_'));

/** `text` cut so that `text + suffix` fits the budget, with no `__` at the seam. */
function fit(text: string, suffix: string): string {
  return collapse(trimEnd(text.slice(0, MAX_NAME_LENGTH - suffix.length)) + suffix);
}

const shortHash = (server: string, tool: string): string =>
  createHash('sha256').update(`${server}/${tool}`).digest('hex').slice(0, 6);

/** `tool` from `from`, moved on to the next word when `from` falls inside one (if a word is left). */
function wordStart(tool: string, from: number): string {
  const rest = tool.slice(from);
  if (from === 0 || /[._-]/.test(tool.charAt(from - 1))) return trimStart(rest);
  const next = rest.search(/[._-][A-Za-z0-9]/);
  return trimStart(next === -1 || next > rest.length / 2 ? rest : rest.slice(next));
}

/** `tool` up to `to`, moved back to the end of the last word when `to` falls inside one (if half is left). */
function wordEnd(tool: string, to: number): string {
  const head = tool.slice(0, to);
  if (to >= tool.length || /[._-]/.test(tool.charAt(to))) return trimEnd(head);
  const last = head.search(/[A-Za-z0-9][._-][^._-]*$/);
  return trimEnd(last === -1 || last + 1 < head.length / 2 ? head : head.slice(0, last + 1));
}

/**
 * `server.tool` with the tool's middle dropped to fit 40 characters: the end is kept whole (tools
 * of one server tend to differ there: `…_extract_alpha`, `…_extract_beta`), with a little of the
 * start for context, and `marker` (a hash, on collision) where the middle was.
 */
function middleCut(server: string, tool: string, marker?: string): string {
  const budget = MAX_NAME_LENGTH - server.length - 1 - (marker === undefined ? 0 : marker.length + 1);
  const head = wordEnd(tool, Math.max(1, Math.floor((budget - 1) / 4)));
  const tail = wordStart(tool, tool.length - (budget - head.length - 1));
  const middle = marker === undefined ? '_' : `_${marker}_`;
  return collapse(`${server}.${head}${middle}${tail}`).slice(0, MAX_NAME_LENGTH);
}

/** The dotted name for a child's tool before collision handling: sanitized, collapsed, within 40 chars. */
export function baseDottedName(server: string, tool: string): string {
  const name = collapse(`${server}.${sanitize(tool)}`);
  return name.length <= MAX_NAME_LENGTH ? name : middleCut(server, sanitize(tool));
}

/**
 * The dotted names a tool may take, best first: its base name; when that was cut and is taken,
 * the same cut with a hash in the middle; then numbered ones.
 */
export function* dottedCandidates(server: string, tool: string): Generator<string> {
  const base = baseDottedName(server, tool);
  yield base;
  const cut = collapse(`${server}.${sanitize(tool)}`).length > MAX_NAME_LENGTH;
  if (cut) yield middleCut(server, sanitize(tool), shortHash(server, tool));
  for (let n = 2; ; n += 1)
    yield cut ? middleCut(server, sanitize(tool), `${shortHash(server, tool)}_${n}`) : fit(base, `_${n}`);
}

/** The underscore spelling of a dotted name: every dot becomes `_`, still without `__`. */
export const underscoreName = (dotted: string): string => collapse(dotted.replaceAll('.', '_'));

/** First of name, name_2, name_3… (each within 40 chars) that is not taken; marks it taken. */
export function claimName(name: string, taken: Set<string>): string {
  return claimFirst(
    (function* () {
      yield name;
      for (let n = 2; ; n += 1) yield fit(name, `_${n}`);
    })(),
    taken,
  );
}

/** The first candidate not taken; marks it taken. */
export function claimFirst(candidates: Iterable<string>, taken: Set<string>): string {
  for (const candidate of candidates) {
    if (taken.has(candidate)) continue;
    taken.add(candidate);
    return candidate;
  }
  throw new Error('no candidate name left');
}
