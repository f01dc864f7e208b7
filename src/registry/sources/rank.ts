// Search relevance: plain word matching weighted by field, plus trust in the sources.
import type { Candidate, SearchSource } from './candidate.js';
import { deriveServerName } from './server-name.js';

// Relevance is plain word matching, weighted by field, so the order is explainable and stable.
const NOISE = new Set([
  'mcp',
  'server',
  'servers',
  'model',
  'context',
  'protocol',
  'a',
  'an',
  'the',
  'for',
  'and',
  'of',
]);
const SOURCE_BOOST: Record<SearchSource, number> = { catalog: 15, official: 8, npm: 0 };

export const isNoiseWord = (word: string): boolean => NOISE.has(word.toLowerCase());

const words = (text: string | undefined): string[] =>
  (text ?? '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

export function queryWords(query: string): string[] {
  const all = words(query);
  const meaningful = all.filter(word => !NOISE.has(word));
  return meaningful.length > 0 ? meaningful : all;
}

type Ranked = Pick<Candidate, 'package' | 'name' | 'title' | 'description' | 'keywords'>;

/** How well a candidate matches the query on its own text; 0 means not at all. */
export function matchScore(query: string, candidate: Ranked): number {
  const phrase = query.trim().toLowerCase();
  const packageName = candidate.package.toLowerCase();
  const unscoped = packageName.replace(/^@[^/]+\//, '');
  const name = candidate.name ?? deriveServerName(candidate.package);
  const nameWords = new Set([...words(packageName), ...words(name)]);
  const titleWords = new Set(words(candidate.title));
  const keywordWords = new Set((candidate.keywords ?? []).flatMap(words));
  const descriptionWords = words(candidate.description);

  let score = 0;
  if (phrase === packageName || phrase === unscoped || phrase === name) score += 100;
  else if (phrase.length >= 3 && packageName.includes(phrase)) score += 20;

  const tokens = queryWords(query);
  let matched = 0;
  for (const token of tokens) {
    const prefix = (word: string) => token.length >= 3 && word.startsWith(token);
    let hit = 0;
    if (nameWords.has(token)) hit += 12;
    else if ([...nameWords].some(prefix)) hit += 6;
    if (titleWords.has(token)) hit += 6;
    else if ([...titleWords].some(prefix)) hit += 3;
    if (keywordWords.has(token)) hit += 4;
    else if ([...keywordWords].some(prefix)) hit += 2;
    if (descriptionWords.includes(token)) hit += 3;
    else if (token.length >= 4 && descriptionWords.some(prefix)) hit += 1;
    if (hit > 0) matched += 1;
    score += hit;
  }
  if (tokens.length > 1 && matched === tokens.length) score += 10;
  return score;
}

/** Final order: relevance plus trust in the sources that listed it. */
export function rankScore(query: string, candidate: Ranked, sources: readonly SearchSource[]): number {
  const boost = sources.reduce((sum, source) => sum + SOURCE_BOOST[source], 0);
  return matchScore(query, candidate) + boost + Math.max(0, sources.length - 1) * 2;
}
