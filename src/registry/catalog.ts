import { z } from 'zod';
import { CATALOG_DATA } from './catalog-data.js';
import type { Candidate } from './search-schema.js';
import { matchScore } from './search-rank.js';
import { deriveServerName, SERVER_NAME_PATTERN } from './server-name.js';

// One bundled entry: what search shows and what install needs (default args, env to ask for).
export const CatalogEntrySchema = z.strictObject({
  package: z.string().regex(/^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/),
  name: z.string().regex(SERVER_NAME_PATTERN).optional(),
  title: z.string().min(1),
  description: z.string().min(1),
  // Default args; "{data}" stands for the server's data folder (HUB_HOME/data/<name>), never a relative path.
  args: z.array(z.string()).default([]),
  argsHint: z.string().optional(),
  // Env vars that say where the server keeps its data, set to a path inside its data folder (e.g. MEMORY_FILE_PATH: "memory.jsonl").
  dataEnv: z.record(z.string().regex(/^[A-Z][A-Z0-9_]*$/), z.string().min(1)).default({}),
  // Packages whose install scripts the server needs (native builds, browser downloads): pass them as registry.install allowScripts.
  scripts: z.array(z.string()).default([]),
  env: z
    .array(
      z.strictObject({
        name: z.string().regex(/^[A-Z][A-Z0-9_]*$/),
        description: z.string(),
        required: z.boolean(),
        secret: z.boolean().optional(),
      }),
    )
    .default([]),
  keywords: z.array(z.string()).default([]),
});
export type CatalogEntryInput = z.input<typeof CatalogEntrySchema>;
export type CatalogEntry = z.infer<typeof CatalogEntrySchema> & { readonly name: string };

// Parsed once at first use: a typo in the data fails loudly in the catalog test, not at a user.
let parsed: readonly CatalogEntry[] | undefined;
export function catalogEntries(): readonly CatalogEntry[] {
  parsed ??= CATALOG_DATA.map(input => {
    const entry = CatalogEntrySchema.parse(input);
    return { ...entry, name: entry.name ?? deriveServerName(entry.package) };
  });
  return parsed;
}

/** The catalog entry for an npm package, for install to pick default args and required env. */
export const findCatalogEntry = (packageName: string): CatalogEntry | undefined =>
  catalogEntries().find(entry => entry.package === packageName.toLowerCase());

export function toCandidate(entry: CatalogEntry): Candidate {
  return {
    package: entry.package,
    source: 'catalog',
    name: entry.name,
    title: entry.title,
    description: entry.description,
    requiredEnv: entry.env
      .filter(env => env.required)
      .map(({ name, description, secret }) => ({ name, description, ...(secret !== undefined && { secret }) })),
    ...(entry.args.length > 0 && { args: entry.args }),
    ...(entry.argsHint !== undefined && { argsHint: entry.argsHint }),
    ...(entry.scripts.length > 0 && { allowScripts: entry.scripts }),
    keywords: entry.keywords,
  };
}

/** Catalog entries matching the query, best first (offline, instant). */
export function searchCatalog(query: string, limit: number): Candidate[] {
  return catalogEntries()
    .map(entry => ({ candidate: toCandidate(entry), score: matchScore(query, toCandidate(entry)) }))
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score || a.candidate.package.localeCompare(b.candidate.package))
    .slice(0, limit)
    .map(({ candidate }) => candidate);
}
