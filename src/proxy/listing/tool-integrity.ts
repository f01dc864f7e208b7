// Tool integrity: fingerprints of tool definitions, and the drift from the approved ones.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../core/canonical-json.js';

// Tool integrity (docs/security.md "Tool integrity"): each tool's definition is fingerprinted when hub first
// caches a server's tools, and a definition that later differs from the approved one is withheld
// (or flagged) until a person approves it. Zero-dependency (node:crypto only): the cold-start lane
// applies it too, so both lanes list the same tools.

type Json = Record<string, unknown>;

/** What config `integrity` chooses for a changed or new tool: not listed, listed with a warning, or not checked. */
export type IntegrityMode = 'withhold' | 'flag' | 'off';

/** The parts of a tool a model reads or relies on; _meta, icons and the like are not fingerprinted. */
const FINGERPRINTED = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;

/** sha256 (hex) of the canonical JSON of the tool's name, title, description, schemas and annotations. */
export function fingerprint(tool: Json): string {
  const parts = Object.fromEntries(FINGERPRINTED.map(key => [key, tool[key]]));
  return createHash('sha256').update(canonicalJson(parts)).digest('hex');
}

export const fingerprintsOf = (tools: readonly Json[]): Record<string, string> =>
  Object.fromEntries(tools.map(tool => [String(tool.name), fingerprint(tool)]));

/** How a listed tool stands against the approved fingerprints: changed, new since approval, or (undefined) as approved. */
export type Drift = 'changed' | 'new';

/**
 * The tools whose definition is not the approved one. No fingerprints yet (never listed since hub
 * records them) means nothing to compare: the first listing becomes the approved set.
 */
export function driftOf(
  tools: readonly Json[],
  fingerprints: Readonly<Record<string, string>> | undefined,
): Map<string, Drift> {
  const drift = new Map<string, Drift>();
  if (fingerprints === undefined) return drift;
  for (const tool of tools) {
    const name = String(tool.name);
    const approved = Object.hasOwn(fingerprints, name) ? fingerprints[name] : undefined;
    if (approved === undefined) drift.set(name, 'new');
    else if (approved !== fingerprint(tool)) drift.set(name, 'changed');
  }
  return drift;
}

/**
 * The approved definitions of the tools that now differ from them, found among what hub cached
 * before (the earlier list, and the approved definitions it kept): registry.list shows them against
 * the new ones. A definition no longer found is simply not shown; the fingerprint still withholds.
 */
export function approvedDefinitions<T extends Json>(
  tools: readonly Json[],
  fingerprints: Readonly<Record<string, string>>,
  earlier: readonly T[],
): T[] {
  const kept: T[] = [];
  for (const [name, drift] of driftOf(tools, fingerprints)) {
    if (drift !== 'changed') continue;
    const found = earlier.find(tool => tool.name === name && fingerprint(tool) === fingerprints[name]);
    if (found && !kept.includes(found)) kept.push(found);
  }
  return kept;
}
