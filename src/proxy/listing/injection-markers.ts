// Obvious prompt-injection markers in what a child server tells the model about its tools
// (docs/security.md "Tool integrity"): shown to the person at install and in registry.list, never acted on
// silently. Plain substring checks over a bounded, normalised text (the one regular expression
// only splits on white space): no description can make the scan slow. Obvious markers only: a careful attacker can word around
// them, which is why changed tools are withheld (tool-integrity.ts) rather than scanned again.

type Json = Record<string, unknown>;

/** Characters a person cannot see but a model reads: zero-width, bidi controls, Unicode tags (ASCII smuggling). */
function hiddenCharacter(code: number): boolean {
  return (
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x2064) ||
    (code >= 0x2066 && code <= 0x2069) ||
    code === 0xfeff ||
    code === 0x00ad ||
    (code >= 0xe0000 && code <= 0xe007f)
  );
}

// Instructions aimed at the model rather than a description of the tool.
const PHRASES = [
  'ignore previous instructions',
  'ignore all previous',
  'ignore the above',
  'ignore prior instructions',
  'disregard previous',
  'disregard all previous',
  'disregard prior',
  'forget your instructions',
  'do not tell the user',
  "don't tell the user",
  'do not mention this',
  'do not mention that',
  'without telling the user',
  'without informing the user',
  'do not inform the user',
  'hide this from the user',
  'the user must not know',
  'new instructions:',
  '~/.ssh',
  'id_rsa',
  'mcp.json',
  'claude_desktop_config',
] as const;

// `<IMPORTANT>`-style blocks that address the model.
const TAGS = [
  '<important>',
  '<system>',
  '<instructions>',
  '<secret>',
  '<hidden>',
  '<|im_start|>',
  '[system]',
  '[inst]',
];

/** How much of one tool is scanned: descriptions are cut at 8 KB and schemas at 64 KB by tool-intake.ts already. */
const MAX_SCAN_CHARS = 128 * 1024;

/** Every string in the tool a model reads: title, description, and the descriptions and titles inside its schemas. */
function modelText(tool: Json): string {
  const parts: string[] = [];
  let size = 0;
  const visit = (value: unknown, depth: number): void => {
    if (size > MAX_SCAN_CHARS || depth > 32) return;
    if (typeof value === 'string') {
      parts.push(value);
      size += value.length;
    } else if (Array.isArray(value)) for (const item of value) visit(item, depth + 1);
    else if (value !== null && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) {
        parts.push(key);
        visit(item, depth + 1);
      }
  };
  visit([tool.title, tool.description, tool.inputSchema, tool.outputSchema, tool.annotations], 0);
  return parts.join('\n').slice(0, MAX_SCAN_CHARS);
}

/** The markers found in one tool, as short phrases a person can read (empty when none). */
export function injectionMarkers(tool: Json): string[] {
  const text = modelText(tool);
  const found: string[] = [];
  let visible = '';
  let hidden = 0;
  for (const char of text) {
    if (hiddenCharacter(char.codePointAt(0) ?? 0)) hidden += 1;
    else visible += char;
  }
  if (hidden > 0) found.push(`${hidden} hidden character${hidden === 1 ? '' : 's'} (zero-width, bidi or tag)`);
  // Case and runs of white space do not hide a phrase; hidden characters inside one neither.
  const plain = visible.toLowerCase().split(/\s+/).join(' ');
  for (const tag of TAGS) if (plain.includes(tag)) found.push(`${tag} block`);
  for (const phrase of PHRASES) if (plain.includes(phrase)) found.push(`"${phrase}"`);
  return found;
}

/** The tools of a list that carry markers, with them. */
export const toolMarkers = (tools: readonly Json[]): { tool: string; markers: string[] }[] =>
  tools.flatMap(tool => {
    const markers = injectionMarkers(tool);
    return markers.length > 0 ? [{ tool: String(tool.name), markers }] : [];
  });
