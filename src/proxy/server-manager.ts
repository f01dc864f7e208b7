import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { HubError } from '../errors.js';
import type { CachedTool } from '../store/schema.js';
import type { ToolDeps } from '../tools/define.js';
import type { ProxiedTools, ServerExtra } from './types.js';

export type ServerState = 'stopped' | 'starting' | 'ready' | 'degraded' | 'failed';

export interface ServerStatusView {
  name: string;
  package?: string;
  version?: string;
  mode: 'npm' | 'command';
  state: ServerState;
  pid?: number;
  /** Exposed dotted names. */
  tools: string[];
  calls: number;
  errors: number;
  meanMs: number | null;
  p95Ms: number | null;
  restarts: number;
  lastError?: string;
  logFile: string;
}

export interface ServerManager extends ProxiedTools {
  /** Start (or restart) the server from its store record now: spawn, handshake, cache its tools in the store (servers[name].tools, toolsUpdatedAt), rebuild routes, send tools/list_changed if initialized. Throws HubError (CHILD_FAILED with the stderr tail / CHILD_TIMEOUT). */
  start(name: string): Promise<CachedTool[]>;
  /** Stop the child if running; the record and cached tools stay. */
  stop(name: string): Promise<void>;
  /** Re-read store.servers (after install/uninstall), stop children whose record is gone, rebuild routes, send tools/list_changed if the exposed list changed. */
  reload(): Promise<void>;
  status(name?: string): Promise<ServerStatusView[]>;
  /** Forward a call by server name and ORIGINAL tool name (registry.call); lazy-starts the child. */
  call(server: string, tool: string, args: Record<string, unknown> | undefined, extra: ServerExtra): Promise<CallToolResult>;
  close(): Promise<void>;
}

// Placeholder so dependents compile while the implementation lands.
export function createServerManager(_deps: ToolDeps): ServerManager {
  const unavailable = (): never => {
    throw new HubError('CHILD_UNAVAILABLE', 'The proxy is not implemented yet.');
  };
  return {
    list: () => [],
    find: () => undefined,
    start: async () => unavailable(),
    stop: async () => undefined,
    reload: async () => undefined,
    status: async () => [],
    call: async () => unavailable(),
    close: async () => undefined,
  };
}
