// The installed servers' own instructions as a bounded section of hub's instructions.
import { leanInstructions } from '../../store/cold-read.js';
import { cut, fit } from '../../core/clip.js';

// Installed servers' own instructions, in hub's instructions at initialize. Built from db.json as
// store/cold-read.ts reads it, with no zod and no server started, so the full hub (hub.ts) and the
// cold-start lane (cold-start/bootstrap.ts) send the same text. Bounded, so many servers cannot
// flood the context.

/** Characters of a server's instructions kept in its record. */
export const INSTRUCTIONS_KEPT_CHARS = 8 * 1024;
/** The whole section (header included) stays under this many characters. */
export const SECTION_BUDGET_CHARS = 2048;
const MIN_PER_SERVER = 120;
const HEADER =
  '\n\nInstalled MCP servers, with the start of their own instructions (registry.list { server } shows them in full):';

/** The instructions as a record keeps them: undefined when empty, cut when very long. */
export function capInstructions(text: string | undefined): string | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  return cut(text, INSTRUCTIONS_KEPT_CHARS);
}

export interface InstructionsEntry {
  readonly name: string;
  readonly order: number;
  readonly instructions?: string | undefined;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The section for these servers ('' when none is installed). */
export function instructionsSection(servers: readonly InstructionsEntry[]): string {
  if (servers.length === 0) return '';
  const sorted = [...servers].sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
  const share = Math.max(MIN_PER_SERVER, Math.floor((SECTION_BUDGET_CHARS - HEADER.length) / sorted.length));
  let section = HEADER;
  for (const [index, server] of sorted.entries()) {
    const text = server.instructions === undefined ? '' : oneLine(server.instructions);
    let line = `\n- ${server.name}${text ? `: ${text}` : ''}`;
    line = fit(line, share);
    const more = `\n- …and ${sorted.length - index} more: registry.list names them all.`;
    if (section.length + line.length + (index < sorted.length - 1 ? more.length : 0) > SECTION_BUDGET_CHARS) {
      return section + more;
    }
    section += line;
  }
  return section;
}

/** The section from db.json as it is now; '' when it is missing or not plainly readable. */
export function instructionsSectionFromDb(dbFile: string): string {
  return instructionsSection(leanInstructions(dbFile));
}
