import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CachedTool, ServerWithTools } from '../store/schema.js';
import type { NameMode } from '../core/naming.js';
import { HUB_TOOL_NAMES, claimFirst, claimName, dottedCandidates, underscoreName } from '../core/exposed-names.js';

/** One proxied tool: its exposed names and where a call goes. Never parsed back from a name. */
export interface Route {
  readonly server: string;
  /** The child's own tool name, sent to it unchanged. */
  readonly tool: string;
  readonly dotted: string;
  readonly underscore: string;
  readonly listed: Record<NameMode, Tool>;
}

export interface RouteTable {
  readonly routes: readonly Route[];
  /** Exposed name in either spelling → route. */
  readonly byName: ReadonlyMap<string, Route>;
  /** server → original tool name → route (registry.call). */
  readonly byServer: ReadonlyMap<string, ReadonlyMap<string, Route>>;
  readonly lists: Record<NameMode, Tool[]>;
  /** server → how many of its tools are callable but not listed (hub's listing budget was spent). */
  readonly unlisted: ReadonlyMap<string, number>;
  /** Changes whenever what tools/list shows changes (list_changed is sent then). */
  readonly signature: string;
}

/**
 * Bytes of proxied tools hub lists in all: well under the 10 MiB an SDK client reads in one
 * message, whatever is installed (each server is bounded on its own by tool-intake.ts).
 */
export const LISTING_BUDGET_BYTES = 6 * 1024 * 1024;

// The child's own title and annotations.title stay as they are: the exposed name is in `name` only.
function listedTool(server: string, cached: CachedTool, name: string): Tool {
  const description = cached.description ? `[${server}] ${cached.description}` : `[${server}]`;
  return { ...(cached as Tool), name, description };
}

/**
 * The routing table, derived only from store data (records with their cached tools attached) so it is the same in every hub process and
 * across restarts: servers in install order, tools in the order the server gave them; earlier
 * ones keep their names on collision, and hub's own tools are never shadowed.
 */
export function buildRoutes(records: readonly ServerWithTools[]): RouteTable {
  const sorted = [...records].sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
  const takenDotted = new Set(HUB_TOOL_NAMES);
  const takenUnderscore = new Set(HUB_TOOL_NAMES);
  const routes: Route[] = [];
  const byName = new Map<string, Route>();
  const byServer = new Map<string, Map<string, Route>>();
  const unlisted = new Map<string, number>();
  const listed: Route[] = [];
  let bytes = 0;
  for (const record of sorted) {
    const tools = new Map<string, Route>();
    byServer.set(record.name, tools);
    for (const cached of record.tools) {
      if (tools.has(cached.name)) continue;
      const dotted = claimFirst(dottedCandidates(record.name, cached.name), takenDotted);
      const underscore = claimName(underscoreName(dotted), takenUnderscore);
      const route: Route = {
        server: record.name,
        tool: cached.name,
        dotted,
        underscore,
        listed: {
          dotted: listedTool(record.name, cached, dotted),
          underscore: listedTool(record.name, cached, underscore),
        },
      };
      routes.push(route);
      // Past the budget a tool stays callable (registry.call, its name) but is not listed.
      const size = Buffer.byteLength(JSON.stringify(route.listed.dotted)) + 1;
      if (bytes + size <= LISTING_BUDGET_BYTES) {
        bytes += size;
        listed.push(route);
      } else unlisted.set(record.name, (unlisted.get(record.name) ?? 0) + 1);
      tools.set(cached.name, route);
      // Dotted names always hold a dot and underscore names never do: the two sets cannot clash.
      byName.set(dotted, route);
      byName.set(underscore, route);
    }
  }
  const lists = {
    dotted: listed.map(route => route.listed.dotted),
    underscore: listed.map(route => route.listed.underscore),
  };
  return { routes, byName, byServer, lists, unlisted, signature: JSON.stringify(lists.dotted) };
}
