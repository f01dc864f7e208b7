// tools.search's index and ranking over the cached tool lists, nothing started to search.
import MiniSearch from 'minisearch';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

// tools.search's ranking: MiniSearch (BM25+ over weighted fields, prefix and typo matching, no
// dependencies) over the cached tool lists, so nothing is started to search. On 74 labelled
// queries over 15 real servers it ranked better than Orama and FlexSearch (docs/exposure.md "Many servers,
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

// snake_case, kebab-case, camelCase and dotted names become words, and a number its own word
// ("op7" is "op 7"), so a query's number finds the one tool that has it.
const tokenize = (text: string): string[] =>
  text
    .slice(0, 4_000)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Za-z])(?=\d)|(\d)(?=[A-Za-z])/g, '$1$2 ')
    .split(/[^\p{L}\p{N}]+/u);

// One letter says nothing; one digit can be what tells "operation 7" from the other operations.
const processTerm = (term: string): string | null => {
  const lower = term.toLowerCase();
  return (lower.length < 2 && !/^\p{N}$/u.test(lower)) || STOP.has(lower) ? null : stem(lower);
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

// How many of the best BM25 hits coverage reorders.
const RERANKED = 50;

/**
 * BM25 sums what each word scores, and a name counts three times, so a tool named with one
 * common word of the query ("add") outranked one that has its distinguishing words ("two
 * numbers"). A hit's score is weighed by the share of the query it has, each word counted by how
 * rare it is among the tools (its inverse document frequency).
 */
function coverage(
  match: Readonly<Record<string, readonly string[]>>,
  words: ReadonlySet<string>,
  weight: (word: string) => number,
): number {
  let all = 0;
  for (const word of words) all += weight(word);
  if (all === 0) return 1;
  const covered = new Set<string>();
  for (const [term, fields] of Object.entries(match)) {
    // A word found only among the parameters ("issue_number" for "numbers") says little of what the tool does.
    if (fields.every(field => field === 'params')) continue;
    for (const word of words) if (term.startsWith(word) || word.startsWith(term)) covered.add(word);
  }
  let got = 0;
  for (const word of covered) got += weight(word);
  // Squared: measured best on the labelled set with a numbered server added (recall@1 0.855 → 0.868).
  return (got / all) ** 2;
}

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
  const docs = routes.map(toDoc);
  index.addAll(docs);
  // How many tools have a word (any field), for coverage's weights: asked of the index on first
  // use (a few exact lookups per query), not counted for every word at build time.
  const frequency = new Map<string, number>();
  const exact = {
    prefix: false,
    fuzzy: false,
    tokenize: (term: string) => [term],
    processTerm: (term: string) => term,
  };
  const weight = (word: string) => {
    let count = frequency.get(word);
    if (count === undefined) {
      count = index.search(word, exact).length;
      if (frequency.size < 10_000) frequency.set(word, count);
    }
    return Math.log(1 + docs.length / Math.max(1, count));
  };
  return {
    search(query, { limit, keep }) {
      const text = query.slice(0, 500);
      // Bounded: coverage looks at the first 32 words (a query is a few words; 500 characters at most).
      const words = new Set(
        tokenize(text)
          .map(processTerm)
          .filter(term => term !== null)
          .slice(0, 32),
      );
      // Coverage reorders the best BM25 hits only: a tool far down has little of the query anyway.
      const hits: SearchHit<R>[] = [];
      for (const result of index.search(text)) {
        const route = routes[result.id as number];
        if (route === undefined || (keep && !keep(route))) continue;
        hits.push({ route, score: result.score * coverage(result.match, words, weight) });
        if (hits.length >= RERANKED) break;
      }
      return hits.sort((a, b) => b.score - a.score).slice(0, limit);
    },
  };
}
