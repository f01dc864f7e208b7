// Input schemas as listed to clients: validation-only keywords left out to save context.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

// Validation-only keywords: hub validates every call with the tool's zod schema (and says which
// field is wrong and how to fix it), so the listed schema keeps only what helps a model fill the
// arguments in (types, enums, defaults, ranges, descriptions). They were about 1 KB of hub's own
// tools/list, which every client pays in context on every turn.
const VALIDATION_ONLY = new Set(['pattern', 'propertyNames', 'minLength', 'maxLength', 'minItems', 'maxItems']);

function plain(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(plain);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (VALIDATION_ONLY.has(key)) continue;
    // zod's "any safe integer" upper bound says nothing to a model.
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    // Property names are data, not keywords: a property called "pattern" stays.
    out[key] =
      key === 'properties' && value !== null && typeof value === 'object' ? plainProperties(value) : plain(value);
  }
  return out;
}

function plainProperties(properties: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, plain(schema)]));
}

/** The input schema as listed to clients: the zod-generated one without validation-only keywords. */
export const listedInputSchema = (schema: Tool['inputSchema']): Tool['inputSchema'] =>
  plain(schema) as Tool['inputSchema'];
