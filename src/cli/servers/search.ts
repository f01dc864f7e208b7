// `hub search`: registry.search as a table a person can scan.
import { createSearch, MAX_SEARCH_LIMIT } from '../../registry/search/search.js';
import { SearchSourceSchema, type SearchOutput, type SearchSource } from '../../registry/sources/candidate.js';
import { openContext } from '../../store/open-context.js';
import type { CliCommand } from '../command.js';
import { parseCommandArgs } from '../args.js';
import { renderTable } from '../table.js';
import { usageOf } from '../usage.js';
import { fit } from '../../core/clip.js';

const USAGE = `${usageOf('search')}\n`;

// A fixed-width table a person can scan; notes for failed sources come after it.
export function renderSearchTable(output: SearchOutput): string {
  const rows = output.results.map(result => [
    result.installed ? `${result.name}*` : result.name,
    result.version ? `${result.package}@${result.version}` : result.package,
    result.sources.join(','),
    fit(result.description || result.title, 70),
  ]);
  const lines =
    output.results.length > 0
      ? [renderTable([['NAME', 'PACKAGE', 'SOURCES', 'DESCRIPTION'], ...rows])]
      : ['No MCP servers found.'];
  if (output.results.some(result => result.installed)) lines.push('', '* installed');
  else if (output.results.length > 0) lines.push('', 'Install one with: hub-mcp install <package>');
  for (const source of output.sources.filter(report => !report.ok))
    lines.push(`note: ${source.source} source failed: ${source.error ?? 'unknown error'}`);
  return `${lines.join('\n')}\n`;
}

export const search: CliCommand = async (argv, io) => {
  const { values, positionals } = parseCommandArgs('search', argv, {
    limit: { type: 'string', short: 'n' },
    json: { type: 'boolean' },
    source: { type: 'string', multiple: true },
  });
  const query = positionals.join(' ').trim();
  const limit = values.limit === undefined ? 10 : Number(values.limit);
  const sources = values.source?.flatMap(value => value.split(','));
  const badSource = sources?.find(source => !SearchSourceSchema.safeParse(source).success);
  if (!query || !Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT || badSource !== undefined) {
    const why = !query
      ? 'a query is required'
      : badSource !== undefined
        ? `unknown source "${badSource}"`
        : `--limit must be an integer from 1 to ${MAX_SEARCH_LIMIT}`;
    io.err(`hub-mcp search: ${why}.\n${USAGE}`);
    return 2;
  }

  const context = openContext({ log: 'silent' });
  for (const warning of context.config.warnings) io.err(`hub: ${warning}\n`);
  const searcher = createSearch(context);
  const output = await searcher.search({ query, limit, ...(sources && { sources: sources as SearchSource[] }) });
  io.out(values.json ? `${JSON.stringify(output, null, 2)}\n` : renderSearchTable(output));
  return output.sources.some(source => source.ok) ? 0 : 1;
};
