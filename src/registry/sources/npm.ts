// npm search as a source: packages matching the text whose manifest says they are MCP servers.
import { z } from 'zod';
import type { Logger } from '../../core/logger.js';
import { getJson, parseAnswer } from './http.js';
import type { Candidate } from './candidate.js';

// npm's search API (`/-/v1/search`) finds packages by text; whether one is an MCP server is
// decided from its manifest (`/<name>/latest`): an `mcpName` field or a dependency on the SDK,
// plus a bin to run. Search objects do not carry dependencies, hence the second request.
const SearchAnswerSchema = z.looseObject({
  objects: z.array(
    z.looseObject({
      package: z.looseObject({
        name: z.string(),
        version: z.string().optional(),
        description: z.string().nullish(),
        keywords: z.array(z.string()).nullish(),
      }),
    }),
  ),
});

const ManifestSchema = z.looseObject({
  name: z.string(),
  version: z.string(),
  description: z.string().nullish(),
  mcpName: z.string().nullish(),
  bin: z.union([z.string(), z.record(z.string(), z.string())]).nullish(),
  dependencies: z.record(z.string(), z.string()).nullish(),
  peerDependencies: z.record(z.string(), z.string()).nullish(),
});
type Manifest = z.infer<typeof ManifestSchema>;

const SDK = '@modelcontextprotocol/sdk';
const MANIFEST_CONCURRENCY = 6;

export const isMcpServerManifest = (manifest: Manifest): boolean => {
  const hasBin =
    typeof manifest.bin === 'string' ? manifest.bin.length > 0 : Object.keys(manifest.bin ?? {}).length > 0;
  const declared =
    Boolean(manifest.mcpName) || Boolean(manifest.dependencies?.[SDK] ?? manifest.peerDependencies?.[SDK]);
  return hasBin && declared;
};

const escapeName = (name: string): string => name.replace('/', '%2f');

// Runs fn over items with at most `limit` in flight, keeping the input order in the output.
async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export interface NpmSearchOptions {
  readonly registry: string;
  readonly query: string;
  readonly limit: number;
  readonly signal: AbortSignal;
  readonly log: Logger;
  /** The asking session's npm environment: its CA and proxy (npm/env.ts); undefined: the hub's. */
  readonly env?: Readonly<Record<string, string>> | undefined;
}

/** npm packages matching the query that are MCP servers, in npm's relevance order. */
export async function searchNpm(options: NpmSearchOptions): Promise<Candidate[]> {
  const { registry, signal, log } = options;
  const url = new URL(`${registry}/-/v1/search`);
  // "mcp" narrows a plain word such as "memory" to MCP packages before the manifest check.
  url.searchParams.set('text', /\bmcp\b/i.test(options.query) ? options.query : `${options.query} mcp`);
  url.searchParams.set('size', String(Math.min(50, Math.max(20, options.limit))));
  const answer = parseAnswer(
    SearchAnswerSchema,
    await getJson(url, 'The npm registry', signal, options.env),
    'The npm registry',
    url,
  );

  const names = [...new Set(answer.objects.map(object => object.package.name))].slice(
    0,
    Math.min(30, Math.max(10, options.limit)),
  );
  const manifests = await mapBounded(names, MANIFEST_CONCURRENCY, async name => {
    const manifestUrl = new URL(`${registry}/${escapeName(name)}/latest`);
    try {
      return parseAnswer(
        ManifestSchema,
        await getJson(manifestUrl, 'The npm registry', signal, options.env),
        'The npm registry',
        manifestUrl,
      );
    } catch (error) {
      if (signal.aborted) throw error;
      log.debug({ package: name, err: error }, 'npm search: manifest unavailable, package skipped');
      return undefined;
    }
  });

  const keywords = new Map(answer.objects.map(object => [object.package.name, object.package.keywords ?? []]));
  return manifests
    .filter((manifest): manifest is Manifest => manifest !== undefined && isMcpServerManifest(manifest))
    .map(manifest => ({
      package: manifest.name,
      source: 'npm' as const,
      version: manifest.version,
      ...(manifest.description && { description: manifest.description }),
      requiredEnv: [],
      keywords: keywords.get(manifest.name) ?? [],
    }));
}
