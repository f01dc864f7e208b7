// registry.search: catalog, official registry and npm asked at once, each with its own timeout.
import type { HubConfig } from '../../core/config/config.js';
import { HubError, errorMessage, isHubError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { Store } from '../../store/store.js';
import { searchCatalog } from '../sources/catalog.js';
import { npmEnvironment } from '../npm/env.js';
import { createNpmRegistryResolver, type NpmRegistryResolver } from '../sources/npm-registry.js';
import { searchNpm } from '../sources/npm.js';
import { searchOfficial } from '../sources/official.js';
import { mergeCandidates } from './merge.js';
import {
  DEFAULT_SEARCH_LIMIT,
  MAX_SEARCH_LIMIT,
  SEARCH_SOURCES,
  type Candidate,
  type SearchOutput,
  type SearchSource,
  type SourceReport,
} from '../sources/candidate.js';

export interface SearchDeps {
  readonly config: HubConfig;
  readonly log: Logger;
  readonly store: Store;
  /** Where npm search goes; defaults to config, npm_config_registry, then `npm config get registry`. */
  readonly npmRegistry?: NpmRegistryResolver;
  /** The client's environment: its npm_config_registry, not the hub process's (another client's). */
  readonly sessionEnv?: Readonly<Record<string, string | undefined>> | undefined;
}

export interface SearchRequest {
  readonly query: string;
  readonly limit?: number;
  readonly sources?: readonly SearchSource[];
  /** The caller's cancellation (the tool call's signal). */
  readonly signal?: AbortSignal;
}

// Here for callers that import them with createSearch; they live with the schema the tool lists.
export { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT };

// Resolves when the signal aborts, so a source that ignores its signal still ends on time.
const abortOf = (signal: AbortSignal): Promise<never> =>
  new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    else signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });

function describeFailure(
  source: SearchSource,
  error: unknown,
  timeoutMs: number,
  timedOut: boolean,
): Pick<SourceReport, 'code' | 'error'> {
  if (timedOut)
    return { code: 'REGISTRY_TIMEOUT', error: `timeout: the ${source} source did not answer within ${timeoutMs} ms` };
  if (isHubError(error)) return { code: error.code, error: error.message };
  return { code: 'INTERNAL', error: errorMessage(error) };
}

/** registry.search: catalog, official registry and npm at once, each with its own timeout. */
export function createSearch(deps: SearchDeps) {
  const { config, store } = deps;
  const log = deps.log.child({ module: 'search' });
  // The asking client's npm registry, CA and proxy, not the hub process's (another client's).
  const npmEnv = npmEnvironment(deps.sessionEnv);
  const npmRegistry = deps.npmRegistry ?? createNpmRegistryResolver(config, npmEnv ?? process.env);

  const runners: Record<SearchSource, (query: string, limit: number, signal: AbortSignal) => Promise<Candidate[]>> = {
    catalog: async (query, limit) => searchCatalog(query, limit),
    official: (query, limit, signal) => searchOfficial({ baseUrl: config.registryUrl, query, limit, signal, log }),
    npm: async (query, limit, signal) =>
      searchNpm({
        registry: await Promise.race([npmRegistry(), abortOf(signal)]),
        query,
        limit,
        signal,
        log,
        env: npmEnv,
      }),
  };

  async function runSource(source: SearchSource, query: string, limit: number, caller: AbortSignal | undefined) {
    const started = performance.now();
    const timeout = AbortSignal.timeout(config.searchTimeoutMs);
    const signal = caller ? AbortSignal.any([timeout, caller]) : timeout;
    try {
      const candidates = await Promise.race([runners[source](query, limit, signal), abortOf(signal)]);
      const report: SourceReport = {
        source,
        ok: true,
        count: candidates.length,
        ms: Math.round(performance.now() - started),
      };
      return { candidates, report };
    } catch (error) {
      const failure = describeFailure(source, error, config.searchTimeoutMs, timeout.aborted && !caller?.aborted);
      log.warn({ source, code: failure.code, err: error }, 'search source failed');
      const report: SourceReport = {
        source,
        ok: false,
        count: 0,
        ms: Math.round(performance.now() - started),
        ...failure,
      };
      return { candidates: [] as Candidate[], report };
    }
  }

  async function installedPackages(): Promise<Set<string>> {
    try {
      const data = await store.read();
      return new Set(
        Object.values(data.servers).flatMap(server => (server.package ? [server.package.toLowerCase()] : [])),
      );
    } catch (error) {
      log.warn({ err: error }, 'search: could not read the store; installed flags may be wrong');
      return new Set();
    }
  }

  return {
    async search(request: SearchRequest): Promise<SearchOutput> {
      const query = request.query.trim();
      if (query.length === 0)
        throw new HubError('INVALID_INPUT', 'The search query is empty; give a word such as "memory" or "github".');
      const limit = Math.min(Math.max(1, request.limit ?? DEFAULT_SEARCH_LIMIT), MAX_SEARCH_LIMIT);
      const sources = SEARCH_SOURCES.filter(source => !request.sources || request.sources.includes(source));
      const [answers, installed] = await Promise.all([
        // Sources are asked for more than the limit, so merging and ranking have room to choose.
        Promise.all(sources.map(source => runSource(source, query, Math.min(100, limit * 2), request.signal))),
        installedPackages(),
      ]);
      if (request.signal?.aborted) throw new HubError('CANCELLED', 'The search was cancelled by the caller.');
      const results = mergeCandidates(
        query,
        answers.flatMap(answer => answer.candidates),
        installed,
      ).slice(0, limit);
      return { results, sources: answers.map(answer => answer.report) };
    },
  };
}

export type Search = ReturnType<typeof createSearch>;
