import { errorMessage } from '../core/errors.js';
import { readDocument, serversOf, type ConfigDocument } from './document.js';
import {
  ClientServerEntrySchema,
  type ClientServerEntry,
  type ClientContext,
  type ClientFile,
  type ClientSpec,
  type Scope,
} from './types.js';

/** A stdio server found in a client config, ready to register in hub. */
export interface FoundServer {
  readonly key: string;
  readonly document: ConfigDocument;
  readonly command: string;
  readonly args: string[];
  readonly env: Record<string, string>;
  readonly cwd?: string;
}

export interface SkippedServer {
  readonly key: string;
  readonly file: string;
  readonly reason: string;
}

export interface ClientServers {
  readonly files: { file: string; scope: string; found: boolean; error?: string }[];
  readonly found: FoundServer[];
  readonly skipped: SkippedServer[];
}

const REMOTE_TYPES = new Set(['http', 'sse', 'streamable-http', 'streamablehttp', 'ws', 'websocket']);

// Claude Code's default "local" scope: ~/.claude.json → projects["<project path>"].mcpServers.
function extraFiles(client: ClientSpec, context: ClientContext, scope: Scope | undefined): ClientFile[] {
  if (client.id !== 'claude-code' || scope === 'project') return [];
  return [{ ...client.locate('user', context), scope: 'local', serversPath: ['projects', context.cwd, 'mcpServers'] }];
}

const isHubEntry = (key: string, entry: ClientServerEntry, serverJs: string): boolean =>
  key === 'hub' || [entry.command, ...(entry.args ?? [])].some(word => word === serverJs);

function toFound(key: string, raw: unknown, document: ConfigDocument, serverJs: string): FoundServer | SkippedServer {
  const file = document.target.file;
  const parsed = ClientServerEntrySchema.safeParse(raw);
  if (!parsed.success) return { key, file, reason: 'not a server entry (expected an object with command and args)' };
  const entry = parsed.data;
  if (isHubEntry(key, entry, serverJs)) return { key, file, reason: 'this is hub itself' };
  if (entry.url ?? entry.serverUrl ?? entry.httpUrl ?? (entry.type && REMOTE_TYPES.has(entry.type.toLowerCase()))) {
    return { key, file, reason: 'remote (URL) server: hub proxies stdio servers, so it stays in the client' };
  }
  if (entry.disabled === true || entry.enabled === false)
    return { key, file, reason: 'disabled in the client; enable it there first if you want it in hub' };
  if (!entry.command) return { key, file, reason: 'has no command' };
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(entry.env ?? {})) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') env[name] = String(value);
  }
  return {
    key,
    document,
    command: entry.command,
    args: (entry.args ?? []).map(String),
    env,
    ...(entry.cwd !== undefined && { cwd: entry.cwd }),
  };
}

/** Every server in the client's config files (one scope, or all), sorted into usable and skipped. */
export async function readClientServers(
  client: ClientSpec,
  context: ClientContext,
  scope: Scope | undefined,
  serverJs: string,
): Promise<ClientServers> {
  const targets = [
    ...(scope ? [scope] : client.scopes).map(s => client.locate(s, context)),
    ...extraFiles(client, context, scope),
  ];
  const result: ClientServers = { files: [], found: [], skipped: [] };
  for (const target of targets) {
    let document: ConfigDocument;
    let servers: Record<string, unknown> | undefined;
    try {
      document = await readDocument(target);
      servers = serversOf(document);
    } catch (error) {
      result.files.push({ file: target.file, scope: target.scope, found: true, error: errorMessage(error) });
      continue;
    }
    result.files.push({ file: target.file, scope: target.scope, found: document.text !== undefined });
    for (const [key, raw] of Object.entries(servers ?? {})) {
      const item = toFound(key, raw, document, serverJs);
      if ('reason' in item) result.skipped.push(item);
      else result.found.push(item);
    }
  }
  return result;
}
