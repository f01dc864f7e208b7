// Tool naming modes (dotted or underscore), and hub's own texts rewritten into the client's spelling.
export type NameMode = 'dotted' | 'underscore';

// Model APIs accept only ^[a-zA-Z0-9_-]{1,64}$ and framework clients (AI SDK, LangChain, mcp-use,
// Mastra) pass names through unchanged, while client names cannot tell them apart (Mastra sends
// the user's config key): underscore for everyone unless dotted is asked for. `auto` is an alias.
export function pickNameMode(setting: 'dotted' | 'underscore' | 'auto'): NameMode {
  return setting === 'dotted' ? 'dotted' : 'underscore';
}

/** The name hub lists for a dotted name in the given mode (every `.` hub adds becomes `_`). */
export const spell = (dotted: string, mode: NameMode): string =>
  mode === 'underscore' ? dotted.replaceAll('.', '_') : dotted;

/** Exposed dotted name → the name the client sees, for names hub writes in its own text. */
export type Spelling = ReadonlyMap<string, string>;

// Hub's own dotted tools, and the `<server>.<tool>` placeholders hub's texts use.
const HUB_DOTTED = /(?<![\w.-])registry\.(search|install|list|uninstall|call|configure)(?![\w-])/g;
const HUB_SEARCH = /(?<![\w.-])tools\.search(?![\w-])/g;
const PLACEHOLDER = /(?<![\w.-])(<[a-z]+>|[a-z][a-z0-9-]{0,19})\.<tool>/g;

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Rewrites the tool names in a text hub wrote (descriptions, instructions, results, errors) into
 * the client's spelling. `proxied` maps the dotted names of installed servers' tools; only exact
 * names are touched, so file names such as memory.jsonl stay as they are.
 */
export function spellText(text: string, mode: NameMode, proxied?: Spelling): string {
  if (mode === 'dotted') return text;
  let out = text
    .replace(HUB_DOTTED, 'registry_$1')
    .replace(HUB_SEARCH, 'tools_search')
    .replace(PLACEHOLDER, '$1_<tool>');
  if (proxied && proxied.size > 0 && out.includes('.')) {
    const names = [...proxied.keys()].sort((a, b) => b.length - a.length).map(escape);
    const pattern = new RegExp(`(?<![\\w.-])(${names.join('|')})(?![\\w-]|\\.\\w)`, 'g');
    out = out.replace(pattern, name => proxied.get(name) ?? name);
  }
  return out;
}
