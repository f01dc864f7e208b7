// What registry.search returns (results, source reports) and one source's candidate before merging.
import { z } from 'zod';
import { SERVER_KINDS, type ServerKind } from './server-kinds.js';

// The shapes registry.search returns (tool output, CLI --json); types are inferred from them.
export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 50;

export const SEARCH_SOURCES = ['catalog', 'official', 'npm'] as const;
export const SearchSourceSchema = z.enum(SEARCH_SOURCES);
export type SearchSource = z.infer<typeof SearchSourceSchema>;

export const EnvVarSchema = z.object({
  name: z.string().describe('Environment variable the server needs, e.g. GITHUB_PERSONAL_ACCESS_TOKEN'),
  description: z.string().optional().describe('What to put in it'),
  secret: z.boolean().optional().describe('True when the value is a credential'),
});
export type EnvVar = z.infer<typeof EnvVarSchema>;

export const SearchResultSchema = z.object({
  name: z.string().describe('Suggested server name for registry.install (its tools become <name>.<tool>)'),
  title: z.string(),
  description: z.string(),
  package: z
    .string()
    .describe(
      'npm package to pass to registry.install; for other kinds what it runs: the PyPI package, container image, bundle URL or remote URL',
    ),
  kind: z
    .enum(SERVER_KINDS)
    .describe(
      'npm, pypi (run with uvx or pipx), oci (docker or podman), mcpb (a bundle hub unpacks) or remote (a URL)',
    ),
  runnable: z.boolean().describe('True when this machine has what this kind needs'),
  runtime: z.string().optional().describe('The program that runs it here (uvx, pipx, docker, podman)'),
  needs: z.string().optional().describe('When not runnable: what to install first, and where to get it'),
  install: z
    .record(z.string(), z.unknown())
    .describe('The registry.install arguments for this result (add env for its requiredEnv)'),
  version: z.string().optional().describe('Latest version a registry reported'),
  source: SearchSourceSchema.describe('The most trusted source that listed it (catalog, then official, then npm)'),
  sources: z.array(SearchSourceSchema).describe('Every source that listed it'),
  installed: z.boolean().describe('True when an installed server already uses this package'),
  requiredEnv: z
    .array(EnvVarSchema)
    .describe('Env vars to pass to registry.install in env; the server is not started without them'),
  args: z.array(z.string()).optional().describe('Suggested args for registry.install'),
  argsHint: z.string().optional().describe('What the args mean when the server needs some, e.g. a directory'),
  allowScripts: z
    .array(z.string())
    .optional()
    .describe(
      'Packages whose install scripts this server needs (native modules, browsers): pass as registry.install allowScripts',
    ),
});
export type SearchResult = z.infer<typeof SearchResultSchema>;

export const SourceReportSchema = z.object({
  source: SearchSourceSchema,
  ok: z.boolean(),
  count: z.number().int().describe('Results this source gave (after filtering to MCP servers)'),
  ms: z.number().int(),
  code: z
    .string()
    .optional()
    .describe('Error code when the source failed (REGISTRY_TIMEOUT, REGISTRY_UNAVAILABLE, REGISTRY_BAD_RESPONSE)'),
  error: z.string().optional().describe('Why this source failed; the other sources still answered'),
});
export type SourceReport = z.infer<typeof SourceReportSchema>;

export const SearchOutputSchema = z.object({
  results: z.array(SearchResultSchema),
  sources: z.array(SourceReportSchema),
});
export type SearchOutput = z.infer<typeof SearchOutputSchema>;

/** One source's answer before merging: the result fields it knows, in its own order. */
export interface Candidate {
  readonly package: string;
  /** Absent: an npm package (the catalog and npm search list only those). */
  readonly kind?: ServerKind;
  readonly runnable?: boolean;
  readonly runtime?: string;
  readonly needs?: string;
  /** registry.install arguments, when not { package, name }. */
  readonly install?: Readonly<Record<string, unknown>>;
  readonly source: SearchSource;
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  readonly version?: string;
  readonly requiredEnv: readonly EnvVar[];
  readonly args?: readonly string[];
  readonly argsHint?: string;
  readonly allowScripts?: readonly string[];
  readonly keywords?: readonly string[];
}
