// Integrity of the texts of children's prompts, resources and templates: changes wait for a person.
import { createHash } from 'node:crypto';

// Integrity for what a child says about its prompts, resources and resource templates (docs/security.md
// "Tool integrity"): their titles and descriptions (a prompt's argument descriptions too) are
// text a model reads, fingerprinted like tool descriptions. The first listing since hub keeps
// these fingerprints is approved; a later change to an entry's text is withheld: the entry is
// listed with its approved text (none, for an entry new since), and the new text waits for a
// person. Applied when hub caches the surface, so both lanes list the same. Zero-dependency.

type Json = Record<string, unknown>;

/** The lists, as the store caches them (schema.ts CachedSurfaceSchema). */
export interface Surface {
  prompts: Json[];
  resources: Json[];
  resourceTemplates: Json[];
  skills?: Json[] | undefined;
}

const KINDS = [
  ['prompts', 'prompt', 'name'],
  ['resources', 'resource', 'uri'],
  ['resourceTemplates', 'template', 'uriTemplate'],
  ['skills', 'skill', 'uri'],
] as const;

/** An entry's key in fingerprints and in `approve`: "prompt:<name>", "resource:<uri>", "template:<uriTemplate>". */
const keyOf = (prefix: string, item: Json, id: string): string => `${prefix}:${String(item[id])}`;

const text = (value: unknown): unknown => (typeof value === 'string' ? value : undefined);

/** The text of an entry a model reads: title, description, and a prompt's argument titles and descriptions. */
function textsOf(item: Json): Json {
  // A skill: its whole SKILL.md, by the fingerprint of the child's bytes (child/skills-intake.ts).
  if (typeof item.textPrint === 'string') return { skill: item.textPrint };
  const args = Array.isArray(item.arguments)
    ? (item.arguments as unknown[]).map(arg =>
        arg !== null && typeof arg === 'object'
          ? { title: text((arg as Json).title), description: text((arg as Json).description) }
          : {},
      )
    : undefined;
  return { title: text(item.title), description: text(item.description), arguments: args };
}

export const surfacePrint = (item: Json): string =>
  createHash('sha256')
    .update(JSON.stringify(textsOf(item)))
    .digest('hex');

const EMPTY = surfacePrint({});
/** Entries kept for review; more are still listed with their approved text (none), just not shown one by one. */
const MAX_PENDING = 200;

/** Fingerprints of every entry of a surface, by key. */
export function surfacePrintsOf(surface: Surface): Record<string, string> {
  const prints: Record<string, string> = {};
  for (const [kind, prefix, id] of KINDS)
    for (const item of surface[kind] ?? []) prints[keyOf(prefix, item, id)] = surfacePrint(item);
  return prints;
}

/** The entry with another entry's text (or none): what is listed while its own text is withheld. */
function withTextOf(item: Json, approved: Json | undefined): Json {
  const { title: _title, description: _description, ...rest } = item;
  const from = approved ?? {};
  const args = Array.isArray(item.arguments)
    ? (item.arguments as Json[]).map(arg => {
        const { title: _t, description: _d, ...plain } = arg;
        const old = Array.isArray(from.arguments)
          ? (from.arguments as Json[]).find(entry => entry.name === arg.name)
          : undefined;
        return {
          ...plain,
          ...(old?.title !== undefined && { title: old.title }),
          ...(old?.description !== undefined && { description: old.description }),
        };
      })
    : undefined;
  return {
    ...rest,
    ...(from.title !== undefined && { title: from.title }),
    ...(from.description !== undefined && { description: from.description }),
    ...(args && { arguments: args }),
  };
}

/** A skill as listed: the SKILL.md text kept for the person's review (skills-intake.ts) stays in the pending entry. */
export function withoutText(item: Json): Json {
  const { text: _text, ...rest } = item;
  return rest;
}

/** An entry whose text is withheld: its key, and the entry as the child sent it (for the person to review). */
export interface PendingEntry {
  key: string;
  item: Json;
}

/**
 * What is listed of a child's surface: entries whose text is approved as they are, others with
 * the approved text found in what was listed before (or none); and the entries withheld.
 */
export function approvedSurface<S extends Surface>(
  surface: S,
  prints: Readonly<Record<string, string>>,
  listedBefore: S | undefined,
): { listed: S; pending: PendingEntry[] } {
  const pending: PendingEntry[] = [];
  const listed: Surface = { prompts: [], resources: [], resourceTemplates: [], ...(surface.skills && { skills: [] }) };
  for (const [kind, prefix, id] of KINDS) {
    for (const item of surface[kind] ?? []) {
      const key = keyOf(prefix, item, id);
      const approvedPrint = Object.hasOwn(prints, key) ? prints[key] : undefined;
      // No text at all (a bare resource, say): nothing a model could be told, nothing to withhold.
      if (approvedPrint === surfacePrint(item) || surfacePrint(item) === EMPTY) {
        listed[kind]!.push(kind === 'skills' ? withoutText(item) : item);
        continue;
      }
      if (pending.length < MAX_PENDING) pending.push({ key, item });
      // A skill is one text (its SKILL.md): withheld whole, not listed until approved.
      if (kind === 'skills') continue;
      const before = listedBefore?.[kind].find(
        entry => keyOf(prefix, entry, id) === key && surfacePrint(entry) === approvedPrint,
      );
      listed[kind]!.push(withTextOf(item, before));
    }
  }
  // The entries keep their shape (only their text fields are swapped): the caller's type holds.
  return { listed: listed as S, pending };
}
