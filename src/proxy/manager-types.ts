// The ServerManager contract the registry tools and the CLI build on.
import type { FastForwarder } from '../wire/fast-path.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { HubConfig } from '../core/config/config.js';
import type { Logger } from '../core/logger.js';
import type { CachedTool } from '../store/schema.js';
import type { Store } from '../store/store.js';
import type { BackoffPolicy } from './slots/backoff.js';
import type { ServerExtra, ClientSide } from './sessions/client-side.js';
import type { ServerState } from './slots/state.js';
import type { ServerStatusView } from './slots/status-view.js';
import type { ProxiedTools } from './types.js';
import type { ProxiedSurface } from './surface/types.js';
import type { SkillSurface } from './surface/skills.js';
import type { RouteTable } from './listing/routes.js';

// The ServerManager contract the registry tools and the CLI build on.

export type { ServerState, ServerStatusView };

/** What a ServerManager is built from. */
export interface ManagerDeps {
  readonly config: HubConfig;
  readonly log: Logger;
  readonly store: Store;
  /** Whoever faces the MCP client (client-side.ts): the stdio hub's Server, or noClient for the CLI. */
  readonly client: ClientSide;
}

export interface ServerManager extends ProxiedTools {
  /** Prompts, resources, completions and logging of the installed servers. */
  readonly surface: ProxiedSurface;
  /** The installed servers' skills (surface/skills.ts). */
  readonly skills?: SkillSurface;
  /** The routing table tools/list answers from now (exposed names of every server's tools). */
  routes(): RouteTable;
  /** Start (or restart) the server from its store record now: spawn, handshake, cache its tools (tools/<name>.json, stamped by servers[name].toolsUpdatedAt), rebuild routes, send tools/list_changed if initialized. Throws HubError (CHILD_FAILED / CHILD_TIMEOUT) naming the package and quoting the lines of its log that explain it (start-failure.ts). */
  start(name: string, options?: { readonly timeoutMs?: number }): Promise<CachedTool[]>;
  /** Stop the child if running; the record and cached tools stay. */
  stop(name: string): Promise<void>;
  /** Re-read store.servers (after install/uninstall), stop children whose record is gone, rebuild routes, send tools/list_changed if the exposed list changed. */
  reload(): Promise<void>;
  status(name?: string): Promise<ServerStatusView[]>;
  /** Forward a call by server name and ORIGINAL tool name (registry.call); lazy-starts the child. */
  call(
    server: string,
    tool: string,
    args: Record<string, unknown> | undefined,
    extra: ServerExtra,
  ): Promise<CallToolResult>;
  /** The child lane's forwarder for an exposed name in either spelling: a session builds its fast path on it (wire/fast-path.ts). */
  readonly fast: (name: string) => FastForwarder | undefined;
  /** A client session ended: its children of per-session servers stop (shared children keep running). */
  closeSession(session: object): Promise<void>;
  close(): Promise<void>;
}

/** Overrides for tests (and the bench); the defaults come from config. */
export interface ServerManagerOptions {
  backoff?: Partial<BackoffPolicy>;
  idleStopMs?: number;
  callTimeoutMs?: number;
  startTimeoutMs?: number;
  /** Wait between closing stdin, SIGTERM and SIGKILL of a child's group. */
  graceMs?: number;
  /** How long a child that printed only non-JSON-RPC lines may stay silent before it is not MCP. */
  notMcpGraceMs?: number;
  /** Overrides config proxy.allowUnsolicitedRequests. */
  allowUnsolicitedRequests?: boolean;
  random?: () => number;
}
