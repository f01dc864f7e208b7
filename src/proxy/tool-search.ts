import MiniSearch from 'minisearch';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

// tools.search's ranking: MiniSearch (BM25+ over weighted fields, prefix and typo matching, no
// dependencies) over the cached tool lists, so nothing is started to search. On 74 labelled
// queries over 15 real servers it ranked better than Orama and FlexSearch (README "Many servers,
// few tools"); `npm run bench -- --only exposure` and test/proxy/exposure-search.test.ts measure it.

/** What the index needs of a tool: its server, exposed names and the tool as listed. */
export interface Searchable {
  readonly server: string;
  readonly dotted: string;
  readonly underscore: string;
  readonly listed: { readonly dotted: Tool };
}

export interface SearchHit<R> {
  readonly route: R;
  readonly score: number;
}

interface Doc {
  id: number;
  name: string;
  title: string;
  server: string;
  description: string;
  params: string;
}

const STOP = new Set(
  'a an and are as at be by can do for from get how i in into is it me my of on or please some that the their them this to use using want with you your'.split(
    ' ',
  ),
);

/** Plural and verb endings off, so "files" finds "file" and "screenshots" finds "screenshot". */
function stem(term: string): string {
  if (term.length > 4 && term.endsWith('ies')) return `${term.slice(0, -3)}y`;
  if (term.length > 4 && term.endsWith('sses')) return term.slice(0, -2);
  if (term.length > 5 && term.endsWith('ing')) return term.slice(0, -3);
  if (term.length > 4 && term.endsWith('ed') && !term.endsWith('eed')) return term.slice(0, -2);
  if (term.length > 3 && term.endsWith('s') && !term.endsWith('ss') && !term.endsWith('us')) return term.slice(0, -1);
  return term;
}

// snake_case, kebab-case, camelCase and dotted names become words.
const tokenize = (text: string): string[] =>
  text
    .slice(0, 4_000)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u);

const processTerm = (term: string): string | null => {
  const lower = term.toLowerCase();
  return lower.length < 2 || STOP.has(lower) ? null : stem(lower);
};

type Json = Record<string, unknown>;

// Bounds on what a tool is indexed by (a hostile or huge description cannot stall the index).
// Cutting descriptions to 600 or 1,000 characters lost recall@1 (0.85 → 0.82) on the labelled set.
const DESCRIPTION_CHARS = 2_000;
const PARAM_CHARS = 300;

/** Parameter names and descriptions, one level deep (bounded: the first 50 properties). */
function paramText(schema: Tool['inputSchema']): string {
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  return Object.entries(properties)
    .slice(0, 50)
    .map(
      ([name, value]) =>
        `${name} ${typeof value?.description === 'string' ? value.description.slice(0, PARAM_CHARS) : ''}`,
    )
    .join(' ');
}

const toDoc = (route: Searchable, id: number): Doc => {
  const tool = route.listed.dotted;
  return {
    id,
    name: route.dotted.slice(route.server.length + 1),
    title: tool.title ?? tool.annotations?.title ?? '',
    server: route.server,
    // The listed description starts with "[server] ": the server is a field of its own.
    description: (tool.description ?? '').replace(/^\[[^\]]*\]\s*/, '').slice(0, DESCRIPTION_CHARS),
    params: paramText(tool.inputSchema),
  };
};

export interface ToolIndex<R> {
  search(query: string, options: { limit: number; keep?: (route: R) => boolean }): SearchHit<R>[];
}

/** An index of the routes (built once per routing table: the caller keeps it while the table lives). */
export function buildToolIndex<R extends Searchable>(routes: readonly R[]): ToolIndex<R> {
  const index = new MiniSearch<Doc>({
    fields: ['name', 'title', 'server', 'description', 'params'],
    tokenize,
    processTerm,
    searchOptions: {
      boost: { name: 3, title: 2, server: 1.5, description: 1, params: 0.4 },
      prefix: term => term.length > 3,
      fuzzy: term => (term.length > 5 ? 0.2 : false),
      combineWith: 'OR',
    },
  });
  index.addAll(routes.map(toDoc));
  return {
    search(query, { limit, keep }) {
      const hits: SearchHit<R>[] = [];
      for (const result of index.search(query.slice(0, 500))) {
        const route = routes[result.id as number];
        if (route === undefined || (keep && !keep(route))) continue;
        hits.push({ route, score: result.score });
        if (hits.length >= limit) break;
      }
      return hits;
    },
  };
}
