import { z } from 'zod';
import type { Logger } from '../core/logger.js';
import { getJson, parseAnswer } from './search-http.js';
import { isNoiseWord } from './search-rank.js';
import type { Candidate, EnvVar } from './search-schema.js';

// The official MCP Registry API v0.1 (server.json schema 2025-09-29). Only the fields hub uses
// are described; unknown keys pass so a new registry field never breaks search.
const EnvironmentVariableSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  isRequired: z.boolean().optional(),
  isSecret: z.boolean().optional(),
});

const ArgumentSchema = z.looseObject({
  type: z.string(),
  name: z.string().optional(),
  valueHint: z.string().optional(),
  value: z.string().optional(),
  default: z.string().optional(),
  description: z.string().optional(),
  isRequired: z.boolean().optional(),
});

const PackageSchema = z.looseObject({
  registryType: z.string(),
  identifier: z.string(),
  version: z.string().optional(),
  transport: z.looseObject({ type: z.string() }).optional(),
  environmentVariables: z.array(EnvironmentVariableSchema).optional(),
  packageArguments: z.array(ArgumentSchema).optional(),
});

export const OfficialServerSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  version: z.string().optional(),
  packages: z.array(PackageSchema).optional(),
});

const ServerListSchema = z.looseObject({
  servers: z.array(z.unknown()),
  metadata: z.looseObject({ nextCursor: z.string().nullish(), count: z.number().optional() }).optional(),
});

type OfficialPackage = z.infer<typeof PackageSchema>;
type OfficialServer = z.infer<typeof OfficialServerSchema>;

// Fixed arguments are passed as given; required ones without a value are only described.
function argumentsOf(pkg: OfficialPackage): { args: string[]; hint: string[] } {
  const args: string[] = [];
  const hint: string[] = [];
  for (const argument of pkg.packageArguments ?? []) {
    const value = argument.value ?? (argument.isRequired ? argument.default : undefined);
    if (value !== undefined) {
      if (argument.type === 'named' && argument.name) args.push(argument.name);
      args.push(value);
    } else if (argument.isRequired) {
      hint.push(
        `${argument.name ?? argument.valueHint ?? 'argument'}${argument.description ? ` (${argument.description})` : ''}`,
      );
    }
  }
  return { args, hint };
}

function toCandidates(server: OfficialServer): Candidate[] {
  const title = server.title ?? server.name.split('/').pop() ?? server.name;
  return (server.packages ?? [])
    .filter(pkg => pkg.registryType === 'npm' && (pkg.transport === undefined || pkg.transport.type === 'stdio'))
    .map(pkg => {
      const requiredEnv: EnvVar[] = (pkg.environmentVariables ?? [])
        .filter(env => env.isRequired)
        .map(env => ({
          name: env.name,
          ...(env.description && { description: env.description }),
          ...(env.isSecret !== undefined && { secret: env.isSecret }),
        }));
      const { args, hint } = argumentsOf(pkg);
      const version = pkg.version ?? server.version;
      return {
        package: pkg.identifier,
        source: 'official' as const,
        title,
        ...(server.description !== undefined && { description: server.description }),
        ...(version !== undefined && { version }),
        requiredEnv,
        ...(args.length > 0 && { args }),
        ...(hint.length > 0 && { argsHint: `required: ${hint.join('; ')}` }),
      };
    });
}

// The registry matches `search` as a substring of server names, so "postgres database" would
// match nothing: a query of several words is sent as its longest meaningful word, and the merged
// ranking then weighs all of them.
export function officialSearchTerm(query: string): string {
  const parts = query.trim().split(/\s+/);
  const meaningful = parts.filter(part => !isNoiseWord(part));
  if (parts.length <= 1 || meaningful.length === 0) return query.trim();
  return meaningful.reduce((longest, part) => (part.length > longest.length ? part : longest));
}

/** Latest versions of servers whose name matches the query, as npm candidates (others are skipped). */
export async function searchOfficial(options: {
  baseUrl: string;
  query: string;
  limit: number;
  signal: AbortSignal;
  log: Logger;
}): Promise<Candidate[]> {
  const url = new URL(`${options.baseUrl}/v0.1/servers`);
  url.searchParams.set('search', officialSearchTerm(options.query));
  url.searchParams.set('version', 'latest');
  url.searchParams.set('limit', String(options.limit));
  const body = parseAnswer(
    ServerListSchema,
    await getJson(url, 'The official MCP Registry', options.signal),
    'The official MCP Registry',
    url,
  );
  const candidates: Candidate[] = [];
  body.servers.forEach((item, index) => {
    const entry = z.looseObject({ server: OfficialServerSchema }).safeParse(item);
    if (entry.success) candidates.push(...toCandidates(entry.data.server));
    else
      options.log.debug(
        { index, issue: entry.error.issues[0]?.message },
        'official registry: skipped a malformed server entry',
      );
  });
  return candidates;
}
