// Every server in a client's config files, sorted into usable ones and skipped ones.
import { errorMessage } from '../core/errors.js';
import { COMMAND_NAME, PACKAGE_NAME } from '../core/package-name.js';
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
  /** A remote (URL) server: its URL (also in command, for display), headers and transport. */
  readonly remote?: {
    readonly url: string;
    readonly headers?: Record<string, string>;
    readonly transport?: 'streamable-http' | 'sse';
  };
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
const WEBSOCKET = /^wss?:|^(ws|websocket)$/i;

// A client's `${env:NAME}` (VS Code, Cursor) is hub's `${NAME}`; other variables stay as they are.
const headerValue = (value: unknown): string => String(value).replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, '$${$1}');

function remoteOf(key: string, entry: ClientServerEntry, document: ConfigDocument): FoundServer | SkippedServer {
  const file = document.target.file;
  const url = entry.url ?? entry.serverUrl ?? entry.httpUrl;
  if (url === undefined) return { key, file, reason: 'remote server without a url' };
  if (WEBSOCKET.test(url) || WEBSOCKET.test(entry.type ?? ''))
    return {
      key,
      file,
      reason: 'WebSocket server: hub speaks Streamable HTTP and HTTP+SSE, so it stays in the client',
    };
  const headers = Object.fromEntries(
    Object.entries(entry.headers ?? {}).map(([name, value]) => [name, headerValue(value)]),
  );
  const type = entry.type?.toLowerCase();
  // Gemini's httpUrl and a type "http" are Streamable HTTP, "sse" the older transport; otherwise
  // hub tries Streamable HTTP and falls back to SSE on its own.
  const transport =
    type === 'sse'
      ? ('sse' as const)
      : entry.httpUrl !== undefined ||
          (type !== undefined && ['http', 'streamable-http', 'streamablehttp'].includes(type))
        ? ('streamable-http' as const)
        : undefined;
  return {
    key,
    document,
    command: url,
    args: [],
    env: {},
    remote: {
      url,
      ...(Object.keys(headers).length > 0 && { headers }),
      ...(transport !== undefined && { transport }),
    },
  };
}

// Claude Code's default "local" scope: ~/.claude.json → projects["<project path>"].mcpServers.
function extraFiles(client: ClientSpec, context: ClientContext, scope: Scope | undefined): ClientFile[] {
  if (client.id !== 'claude-code' || scope === 'project') return [];
  return [{ ...client.locate('user', context), scope: 'local', serversPath: ['projects', context.cwd, 'mcpServers'] }];
}

// hub's own entry under another key: its server.js, its command, or `npx -y hub-mcp[@version]`.
const isHubEntry = (key: string, entry: ClientServerEntry, serverJs: string): boolean =>
  key === 'hub' ||
  [entry.command, ...(entry.args ?? [])].some(
    word =>
      word === serverJs ||
      word === COMMAND_NAME ||
      word === PACKAGE_NAME ||
      (typeof word === 'string' && word.startsWith(`${PACKAGE_NAME}@`)),
  );

function toFound(key: string, raw: unknown, document: ConfigDocument, serverJs: string): FoundServer | SkippedServer {
  const file = document.target.file;
  const parsed = ClientServerEntrySchema.safeParse(raw);
  if (!parsed.success) return { key, file, reason: 'not a server entry (expected an object with command and args)' };
  const entry = parsed.data;
  if (isHubEntry(key, entry, serverJs)) return { key, file, reason: 'this is hub itself' };
  if (entry.disabled === true || entry.enabled === false)
    return { key, file, reason: 'disabled in the client; enable it there first if you want it in hub' };
  if (entry.url ?? entry.serverUrl ?? entry.httpUrl ?? (entry.type && REMOTE_TYPES.has(entry.type.toLowerCase())))
    return remoteOf(key, entry, document);
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
