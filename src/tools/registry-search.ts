// registry.search as a tool: its result text and what to do next.
import { z } from 'zod';
import type { createSearch } from '../registry/search/search.js';
import {
  DEFAULT_SEARCH_LIMIT,
  MAX_SEARCH_LIMIT,
  SearchOutputSchema,
  SearchSourceSchema,
  type SearchOutput,
} from '../registry/sources/candidate.js';
import { defineTool, type HubTool, type ToolDeps } from './define.js';

const SearchInputSchema = z.strictObject({
  query: z.string().trim().min(1).max(200).describe('A service or task: "github", "postgres", "web search"'),
  limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).default(DEFAULT_SEARCH_LIMIT).describe('Most results'),
  sources: z.array(SearchSourceSchema).min(1).optional().describe('Sources to ask (default all)'),
});

// Claude Code and Codex show the model only structuredContent: what to do next goes there too.
const SearchToolOutputSchema = SearchOutputSchema.extend({ next: z.string().describe('What to call next') });

export function nextAfterSearch(output: SearchOutput): string {
  if (output.results.length === 0) return 'No MCP servers found; try another word or registry.search with fewer words.';
  const first = output.results.find(result => !result.installed && result.runnable);
  const example = first ? ` (e.g. registry.install ${JSON.stringify(first.install)})` : '';
  return `Install one with registry.install and the result's "install" arguments, with env for its requiredEnv${example}; a result that is not runnable says what it needs first; a result marked installed is ready: registry.list { server } shows its tools.`;
}

/** The short text for clients that show only text: one line per result with how to install it. */
export function renderSearch(output: SearchOutput): string {
  const lines = output.results.map(result => {
    const env =
      result.requiredEnv.length > 0
        ? `; needs env ${result.requiredEnv.map(variable => variable.name).join(', ')}`
        : '';
    const argsHint = result.argsHint ? `; args: ${result.argsHint}` : '';
    const args = result.args ? `, args: ${JSON.stringify(result.args)}` : '';
    const hint = result.installed
      ? 'installed'
      : !result.runnable
        ? `needs ${result.needs ?? 'a runtime this machine lacks'}`
        : result.kind === 'npm'
          ? `install: registry.install { package: "${result.package}", name: "${result.name}"${args} }${env}${argsHint}`
          : `install: registry.install ${JSON.stringify(result.install)}${env}${argsHint}`;
    const kind = result.kind === 'npm' ? '' : `${result.kind}${result.runtime ? ` via ${result.runtime}` : ''}: `;
    return `- ${result.name}: ${result.title} (${kind}${result.package}${result.version ? `@${result.version}` : ''}) [${result.sources.join(', ')}] ${result.description} — ${hint}`;
  });
  const failed = output.sources
    .filter(source => !source.ok)
    .map(source => `note: ${source.source} failed: ${source.error ?? 'unknown error'}`);
  const head =
    output.results.length === 0
      ? 'No MCP servers found; try another word or registry.search with fewer words.'
      : `${output.results.length} MCP server(s):`;
  return [head, ...lines, ...failed].join('\n');
}

export function createSearchTool(deps: ToolDeps): HubTool {
  // The search sources load on the first search: listing the tool needs only its schemas.
  let searcher: Promise<ReturnType<typeof createSearch>> | undefined;
  const loadSearcher = () =>
    (searcher ??= import('../registry/search/search.js').then(module => module.createSearch(deps)));
  return defineTool({
    name: 'registry.search',
    title: 'Search the MCP registry',
    description:
      'Search MCP servers to install (bundled catalog, official MCP Registry, npm). ' +
      'Each result gives its kind, whether this machine can run it, required env vars and the registry.install arguments. Read-only.',
    input: SearchInputSchema,
    output: SearchToolOutputSchema,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async run(input, call) {
      const output = await (
        await loadSearcher()
      ).search({
        query: input.query,
        limit: input.limit,
        ...(input.sources && { sources: input.sources }),
        signal: call.signal,
      });
      return { structured: { ...output, next: nextAfterSearch(output) }, text: renderSearch(output) };
    },
  });
}
