// ProxiedTools: the installed servers' tools, surface and tasks as hub.ts lists and calls them.
import type { FastForwarder } from '../wire/fast-path.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerExtra } from './sessions/client-side.js';
import type { NameMode } from '../core/naming.js';
import type { ProxiedSurface } from './surface/types.js';
import type { ProxiedTasks } from './tasks/types.js';
import type { ExtensionTasks } from './tasks/extension-tasks.js';
import type { RouteTable } from './listing/routes.js';

export type { ServerExtra };

/** The proxied tools of installed servers, as hub.ts lists and calls them. */
export interface ProxiedTools {
  /** Every installed server's tools, exposed names in the given mode, deterministic order. */
  list(mode: NameMode): Tool[];
  /** The routing table behind list (exposure and tools.search choose from it). */
  routes?(): RouteTable;
  /** Re-reads the installed servers when another hub changed db.json since the last look. */
  refresh?(): Promise<void>;
  /** The forwarder for an exposed name in either spelling, or undefined if no such tool. */
  find(
    name: string,
  ): ((args: Record<string, unknown> | undefined, extra: ServerExtra) => Promise<CallToolResult>) | undefined;
  /** Prompts, resources, completions and logging of the installed servers (proxied-surface.ts). */
  readonly surface?: ProxiedSurface;
  /** Task-augmented calls and tasks/* (tasks/forward.ts). */
  readonly tasks?: ProxiedTasks;
  /** The Tasks extension (2026-07-28) for clients that declared it (tasks/extension-tasks.ts). */
  readonly extensionTasks?: ExtensionTasks;
  /** The child lane's forwarder for an exposed name (a refused tool answers why): what the session's fast path (wire/fast-path.ts) resolves names with. */
  readonly fast?: (name: string) => FastForwarder | undefined;
}
