// The official MCP Registry as a source: search, one server's entry, its short name.
import { z } from 'zod';
import type { Logger } from '../../core/logger.js';
import { HubError } from '../../core/errors.js';
import { argumentsOf, kindOf } from './official-map.js';
import {
  OfficialServerSchema,
  ServerListSchema,
  type OfficialPackage,
  type OfficialRemote,
  type OfficialServer,
} from './official-schema.js';
import { getJson, parseAnswer } from './http.js';
import { isNoiseWord } from './rank.js';
import type { Candidate, EnvVar } from './candidate.js';
import { deriveServerName } from './server-name.js';
import { checkRuntime, type ServerKind } from './server-kinds.js';

export { OfficialServerSchema };

const requiredEnvOf = (inputs: OfficialPackage['environmentVariables']): EnvVar[] =>
  (inputs ?? [])
    .filter(input => input.isRequired && input.value === undefined && input.default === undefined)
    .map(input => ({
      name: input.name,
      ...(input.description && { description: input.description }),
      ...(input.isSecret !== undefined && { secret: input.isSecret }),
    }));

/** A short server name from the registry's (`io.github.example/time-server` → `time`). */
export const officialServerName = (server: OfficialServer): string =>
  deriveServerName(server.name.split('/').pop() ?? server.name);

// One candidate per package and per remote, each with its kind and whether this machine runs it.
function toCandidates(server: OfficialServer, pathEnv: string | undefined): Candidate[] {
  const title = server.title ?? server.name.split('/').pop() ?? server.name;
  const base = {
    source: 'official' as const,
    title,
    ...(server.description !== undefined && { description: server.description }),
  };
  const name = officialServerName(server);
  const packages = (server.packages ?? []).flatMap(pkg => {
    const kind = kindOf(pkg);
    if (kind === undefined) return [];
    const { args, hint } = argumentsOf(pkg.packageArguments);
    const version = pkg.version ?? server.version;
    const local = pkg.transport === undefined || pkg.transport.type === 'stdio';
    const runtime = local
      ? checkRuntime(kind, pathEnv)
      : { runnable: false, needs: `a launcher for a local ${pkg.transport?.type} server, which hub does not run yet` };
    return [
      {
        ...base,
        kind,
        package: pkg.identifier,
        ...(version !== undefined && { version }),
        requiredEnv: requiredEnvOf(pkg.environmentVariables),
        ...(args.length > 0 && { args }),
        ...(hint.length > 0 && { argsHint: `required: ${hint.join('; ')}` }),
        ...runtime,
        install: kind === 'npm' ? { package: pkg.identifier, name } : { official: server.name, kind, name },
      } satisfies Candidate,
    ];
  });
  const remotes = (server.remotes ?? []).map((remote: OfficialRemote) => ({
    ...base,
    kind: 'remote' as ServerKind,
    package: remote.url,
    ...(server.version !== undefined && { version: server.version }),
    requiredEnv: requiredEnvOf(remote.headers),
    runnable: true,
    install: { official: server.name, kind: 'remote', name },
  }));
  return [...packages, ...remotes];
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

async function listServers(options: {
  baseUrl: string;
  search: string;
  limit: number;
  signal: AbortSignal;
  log: Logger;
}): Promise<OfficialServer[]> {
  const url = new URL(`${options.baseUrl}/v0.1/servers`);
  url.searchParams.set('search', options.search);
  url.searchParams.set('version', 'latest');
  url.searchParams.set('limit', String(options.limit));
  const body = parseAnswer(
    ServerListSchema,
    await getJson(url, 'The official MCP Registry', options.signal),
    'The official MCP Registry',
    url,
  );
  const servers: OfficialServer[] = [];
  body.servers.forEach((item, index) => {
    const entry = z.looseObject({ server: OfficialServerSchema }).safeParse(item);
    if (entry.success) servers.push(entry.data.server);
    else
      options.log.debug(
        { index, issue: entry.error.issues[0]?.message },
        'official registry: skipped a malformed server entry',
      );
  });
  return servers;
}

/** Latest versions of servers whose name matches the query: every package and remote, with its kind. */
export async function searchOfficial(options: {
  baseUrl: string;
  query: string;
  limit: number;
  signal: AbortSignal;
  log: Logger;
  pathEnv?: string | undefined;
}): Promise<Candidate[]> {
  const servers = await listServers({ ...options, search: officialSearchTerm(options.query) });
  return servers.flatMap(server => toCandidates(server, options.pathEnv ?? process.env.PATH));
}

/** One server's latest entry by its registry name (registry.install { official }). */
export async function fetchOfficialServer(options: {
  baseUrl: string;
  name: string;
  signal: AbortSignal;
  log: Logger;
}): Promise<OfficialServer> {
  const servers = await listServers({ ...options, search: options.name, limit: 100 });
  const found = servers.find(server => server.name === options.name);
  if (!found)
    throw new HubError(
      'NOT_FOUND',
      `Field "official": the official MCP Registry has no server named "${options.name}"; registry.search gives the names it lists.`,
    );
  return found;
}
