// The bundled catalog as a source: entries parsed once, searched offline, found by package.
import type { z } from 'zod';
import { CATALOG_DATA } from './catalog-data.js';
import { CatalogEntrySchema } from './catalog-schema.js';
import type { Candidate } from './candidate.js';
import { matchScore } from './rank.js';
import { deriveServerName } from './server-name.js';

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
