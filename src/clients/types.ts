// The MCP clients hub configures: their ids, scopes, config files and entries.
import { z } from 'zod';

// The MCP clients `hub config` and `hub import` know, and where each keeps its servers.
export const ClientIdSchema = z.enum([
  'claude-code',
  'claude-desktop',
  'cursor',
  'vscode',
  'codex',
  'windsurf',
  'gemini',
]);
export type ClientId = z.infer<typeof ClientIdSchema>;

/** project: a file in the project folder (shared through git); user: one file for every project. */
export const ScopeSchema = z.enum(['project', 'user']);
export type Scope = z.infer<typeof ScopeSchema>;

/** Everything that depends on the machine, injected so tests never touch the real home. */
export interface ClientContext {
  readonly home: string;
  /** The project folder (process.cwd() for the CLI). */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly platform: NodeJS.Platform;
}

/** How a client starts hub: the absolute node binary and dist/server.js. */
export interface Launch {
  readonly command: string;
  readonly args: readonly string[];
}

/** One config file of one client, and where the servers table sits inside it. */
export interface ClientFile {
  readonly client: ClientId;
  /** 'local' is Claude Code's per-project section of ~/.claude.json (read by import only). */
  readonly scope: Scope | 'local';
  readonly file: string;
  readonly format: 'json' | 'toml';
  /** Path of keys to the servers table: ['mcpServers'], ['servers'], ['mcp_servers']. */
  readonly serversPath: readonly string[];
}

export interface ClientSpec {
  readonly id: ClientId;
  readonly title: string;
  readonly scopes: readonly Scope[];
  readonly defaultScope: Scope;
  locate(scope: Scope, context: ClientContext): ClientFile;
  /** The value stored under the `hub` key; env is the person's environment (what to carry over). */
  entry(launch: Launch, env?: ClientContext['env']): Record<string, unknown>;
  /**
   * The entry for hub's Streamable HTTP endpoint (`hub serve`, `hub config --http`) in the form
   * this client reads; absent for clients that only start stdio servers.
   */
  urlEntry?(url: string, headers: Readonly<Record<string, string>>): Record<string, unknown>;
  /** Why this client cannot take a URL entry, and what to do instead (clients without urlEntry). */
  readonly noUrl?: string;
  /** Extra lines for people: a client's own CLI that does the same, restart hints. */
  notes?(launch: Launch, scope: Scope): string[];
}

/** A server as a client config declares it (the shapes the clients share). */
export const ClientServerEntrySchema = z.looseObject({
  command: z.string().optional(),
  args: z.array(z.unknown()).optional(),
  env: z.record(z.string(), z.unknown()).optional(),
  cwd: z.string().optional(),
  type: z.string().optional(),
  url: z.string().optional(),
  serverUrl: z.string().optional(),
  httpUrl: z.string().optional(),
  headers: z.record(z.string(), z.unknown()).optional(),
  disabled: z.boolean().optional(),
  enabled: z.boolean().optional(),
});
export type ClientServerEntry = z.infer<typeof ClientServerEntrySchema>;
