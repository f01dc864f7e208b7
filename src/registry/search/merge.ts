// Candidates from every source merged into one ranked result per package.
import { rankScore } from '../sources/rank.js';
import { SEARCH_SOURCES, type Candidate, type EnvVar, type SearchResult } from '../sources/candidate.js';
import { deriveServerName } from '../sources/server-name.js';
import { checkRuntime } from '../sources/server-kinds.js';

// Candidates from every source become one result per npm package: fields from the most trusted
// source that has them (catalog, official, npm), env vars united, every source remembered.
const trust = (candidate: Candidate): number => SEARCH_SOURCES.indexOf(candidate.source);

function mergeOne(group: readonly Candidate[], installed: ReadonlySet<string>): SearchResult {
  const ordered = [...group].sort((a, b) => trust(a) - trust(b));
  const first = <K extends keyof Candidate>(key: K): Candidate[K] | undefined =>
    ordered.find(candidate => candidate[key] !== undefined && candidate[key] !== '')?.[key];
  const best = ordered[0] as Candidate;
  const env = new Map<string, EnvVar>();
  for (const candidate of ordered)
    for (const variable of candidate.requiredEnv) if (!env.has(variable.name)) env.set(variable.name, variable);
  // The registries know the latest published version; npm's own answer is the freshest.
  const version = [...ordered].reverse().find(candidate => candidate.version)?.version;
  const name = first('name') ?? deriveServerName(best.package);
  const args = first('args');
  const argsHint = first('argsHint');
  const allowScripts = first('allowScripts');
  const kind = best.kind ?? 'npm';
  const runtime = best.kind === undefined ? checkRuntime('npm') : best;
  return {
    name,
    title: first('title') ?? name,
    description: first('description') ?? '',
    package: best.package,
    kind,
    runnable: runtime.runnable ?? true,
    ...(runtime.runtime !== undefined && { runtime: runtime.runtime }),
    ...(runtime.needs !== undefined && { needs: runtime.needs }),
    install: {
      ...(best.install ?? { package: best.package }),
      name,
      ...(kind === 'npm' && args !== undefined && { args: [...args] }),
    },
    ...(version !== undefined && { version }),
    source: best.source,
    sources: [...new Set(ordered.map(candidate => candidate.source))],
    installed: installed.has(best.package.toLowerCase()),
    requiredEnv: [...env.values()],
    ...(args !== undefined && { args: [...args] }),
    ...(argsHint !== undefined && { argsHint }),
    ...(allowScripts !== undefined && { allowScripts: [...allowScripts] }),
  };
}

/** One ranked result per package, best first; ties are broken by package name so order is stable. */
export function mergeCandidates(
  query: string,
  candidates: readonly Candidate[],
  installed: ReadonlySet<string>,
): SearchResult[] {
  const groups = new Map<string, Candidate[]>();
  for (const candidate of candidates) {
    // One result per kind and package: a PyPI package and an npm one may share a name.
    const key = `${candidate.kind ?? 'npm'}:${candidate.package.toLowerCase()}`;
    groups.set(key, [...(groups.get(key) ?? []), candidate]);
  }
  return [...groups.values()]
    .map(group => {
      const result = mergeOne(group, installed);
      const keywords = group.flatMap(candidate => candidate.keywords ?? []);
      return { result, score: rankScore(query, { ...result, keywords }, result.sources) };
    })
    .sort((a, b) => b.score - a.score || a.result.package.localeCompare(b.result.package))
    .map(({ result }) => result);
}
