// What hub takes from a child's prompt, resource and template lists, each entry bounded.
import { PromptSchema, ResourceSchema, ResourceTemplateSchema } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import {
  CachedPromptSchema,
  CachedResourceSchema,
  CachedResourceTemplateSchema,
  type CachedSurface,
} from '../../store/schema.js';

/**
 * What hub takes from one child's prompts/list, resources/list and resources/templates/list. The
 * lists are cached complete (hub pages over them itself), so each is bounded: a child cannot make
 * the cache, or hub's memory, grow without end. What is left out is logged.
 */
export const SURFACE_LIMITS = {
  prompts: 500,
  resources: 10_000,
  resourceTemplates: 500,
  /** One entry as JSON; a bigger one is skipped. */
  entryBytes: 64 * 1024,
  /** Everything taken from one server, as JSON. */
  serverBytes: 4 * 1024 * 1024,
  /** Pages asked of a child for one list (a child paging one entry at a time still fits). */
  maxPages: 1_000,
} as const;

export type SurfaceKind = 'prompts' | 'resources' | 'resourceTemplates';

// What every MCP client checks, then what the cache holds.
const SCHEMAS: Record<SurfaceKind, [z.ZodType, z.ZodType]> = {
  prompts: [PromptSchema, CachedPromptSchema],
  resources: [ResourceSchema, CachedResourceSchema],
  resourceTemplates: [ResourceTemplateSchema, CachedResourceTemplateSchema],
};

export interface SurfaceIntake {
  surface: CachedSurface;
  /** One line per entry or list that was left out, with why. */
  issues: string[];
}

/** Reads each entry on its own: a bad one is skipped with its reason, never the whole list. */
export function takeSurface(lists: Record<SurfaceKind, readonly unknown[]>): SurfaceIntake {
  const surface: Record<SurfaceKind, unknown[]> = { prompts: [], resources: [], resourceTemplates: [] };
  const issues: string[] = [];
  let bytes = 0;
  for (const kind of Object.keys(SCHEMAS) as SurfaceKind[]) {
    const [mcp, cached] = SCHEMAS[kind];
    const seen = new Set<string>();
    let over = 0;
    for (const [index, entry] of lists[kind].entries()) {
      const checked = mcp.safeParse(entry);
      const kept = checked.success ? cached.safeParse(entry) : checked;
      if (!kept.success) {
        if (issues.length < 50) issues.push(`${kind}[${index}]: ${kept.error.issues[0]?.message ?? 'not valid'}`);
        continue;
      }
      const key = keyOf(kind, kept.data as Record<string, unknown>);
      if (seen.has(key)) continue;
      const size = Buffer.byteLength(JSON.stringify(kept.data));
      if (size > SURFACE_LIMITS.entryBytes) {
        issues.push(`${kind} ${key}: ${size} bytes, over hub's limit of ${SURFACE_LIMITS.entryBytes} per entry`);
        continue;
      }
      if (surface[kind].length >= SURFACE_LIMITS[kind] || bytes + size > SURFACE_LIMITS.serverBytes) {
        over += 1;
        continue;
      }
      seen.add(key);
      bytes += size;
      surface[kind].push(kept.data);
    }
    if (over > 0)
      issues.push(
        `${over} ${kind} over hub's limit of ${SURFACE_LIMITS[kind]} ${kind} or ${SURFACE_LIMITS.serverBytes} bytes per server`,
      );
  }
  return { surface: surface as CachedSurface, issues };
}

const keyOf = (kind: SurfaceKind, entry: Record<string, unknown>): string =>
  String(kind === 'prompts' ? entry.name : kind === 'resources' ? entry.uri : entry.uriTemplate);
