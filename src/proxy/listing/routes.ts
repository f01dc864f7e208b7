// The routing table: every proxied tool's exposed names and where a call to it goes.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CachedTool, ServerWithTools } from '../../store/schema.js';
import { spellText, type NameMode } from '../../core/naming.js';
import { HUB_TOOL_NAMES, claimFirst, claimName, dottedCandidates, underscoreName } from '../../core/exposed-names.js';
import { toolVerdicts, type Refusal, type ToolVerdict } from './tool-filter.js';
import type { IntegrityMode } from './tool-integrity.js';
import type { ToolNeed } from './tool-needs.js';
import { isAppOnly } from './apps.js';
import { uiUriPlan, withShownUri } from './app-uris.js';

/** One proxied tool: its exposed names and where a call goes. Never parsed back from a name. */
export interface Route {
  readonly server: string;
  /** The child's own tool name, sent to it unchanged. */
  readonly tool: string;
  readonly dotted: string;
  readonly underscore: string;
  readonly listed: Record<NameMode, Tool>;
  /** Client capabilities it was seen to need (tool-needs.ts): a session lacking one lists it marked. */
  readonly needs?: readonly ToolNeed[];
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
  /** Exposed name (either spelling) of a tool left out by tool-filter.ts → why; a call to it is refused with this. */
  readonly refused: ReadonlyMap<string, Refusal>;
  /** server → the tool's own name → why it is left out (registry.call). */
  readonly refusedByServer: ReadonlyMap<string, ReadonlyMap<string, Refusal>>;
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

/** One exposed entry of a server (a tool, a prompt): its names in both spellings and how it is listed. */
export interface Exposed<T, L> {
  readonly server: string;
  readonly item: T;
  readonly dotted: string;
  readonly underscore: string;
  readonly listed: Record<NameMode, L>;
  /** Within hub's listing budget (past it, an entry stays reachable by name but is not listed). */
  readonly inBudget: boolean;
}

/**
 * Names every entry of every server by SPEC "Tool names", the same for tools and prompts: servers
 * in install order, entries in the order the server gave them, earlier ones keep their names on
 * collision, `reserved` names (hub's own tools) are never taken, and what is listed stays within
 * LISTING_BUDGET_BYTES. Derived only from store data, so it is the same in every hub process.
 */
export function exposeNames<T extends { name: string }, L>(
  records: readonly ServerWithTools[],
  itemsOf: (record: ServerWithTools) => readonly T[],
  show: (server: string, item: T, name: string) => L,
  reserved: ReadonlySet<string> = new Set(),
): Exposed<T, L>[] {
  const sorted = [...records].sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
  const takenDotted = new Set(reserved);
  const takenUnderscore = new Set(reserved);
  const exposed: Exposed<T, L>[] = [];
  let bytes = 0;
  for (const record of sorted) {
    const seen = new Set<string>();
    for (const item of itemsOf(record)) {
      if (seen.has(item.name)) continue;
      seen.add(item.name);
      const dotted = claimFirst(dottedCandidates(record.name, item.name), takenDotted);
      const underscore = claimName(underscoreName(dotted), takenUnderscore);
      const listed = { dotted: show(record.name, item, dotted), underscore: show(record.name, item, underscore) };
      const size = Buffer.byteLength(JSON.stringify(listed.dotted)) + 1;
      const inBudget = bytes + size <= LISTING_BUDGET_BYTES;
      if (inBudget) bytes += size;
      exposed.push({ server: record.name, item, dotted, underscore, listed, inBudget });
    }
  }
  return exposed;
}

/**
 * The routing table of proxied tools (exposeNames); hub's own tools are never shadowed. Dotted
 * names always hold a dot and underscore names never do: the two spellings cannot clash.
 */
export function buildRoutes(
  records: readonly ServerWithTools[],
  options: { readonly integrity?: IntegrityMode } = {},
): RouteTable {
  // Names are given over every cached tool, eligible or not, so a filter never renames another tool.
  const verdicts = new Map(records.map(record => [record.name, toolVerdicts(record, options.integrity ?? 'withhold')]));
  const verdict = (server: string, tool: string): ToolVerdict | undefined => verdicts.get(server)?.get(tool);
  const needsOf = new Map(records.map(record => [record.name, record.toolNeeds]));
  const uris = uiUriPlan(records);
  const flagged = (record: ServerWithTools): CachedTool[] =>
    record.tools.map(own => {
      const tool = withShownUri(uris, record.name, own);
      const flag = verdict(record.name, tool.name)?.flag;
      return flag === undefined ? tool : { ...tool, description: `${flag} ${tool.description ?? ''}`.trimEnd() };
    });
  const refused = new Map<string, Refusal>();
  const refusedByServer = new Map<string, Map<string, Refusal>>();
  const routes: Route[] = [];
  const byName = new Map<string, Route>();
  const byServer = new Map<string, Map<string, Route>>(records.map(record => [record.name, new Map()]));
  const unlisted = new Map<string, number>();
  const listed: Route[] = [];
  for (const entry of exposeNames(records, flagged, listedTool, HUB_TOOL_NAMES)) {
    const { server, item, dotted, underscore } = entry;
    const why = verdict(server, item.name)?.refused;
    if (why !== undefined) {
      // Said in the spelling the client called it by (hub's own tool names in its text included).
      refused.set(dotted, why).set(underscore, { ...why, message: spellText(why.message, 'underscore') });
      refusedByServer.set(server, (refusedByServer.get(server) ?? new Map<string, Refusal>()).set(item.name, why));
      continue;
    }
    const known = needsOf.get(server);
    const needs = known && Object.hasOwn(known, item.name) ? known[item.name] : undefined;
    const route: Route = {
      server,
      tool: item.name,
      dotted,
      underscore,
      listed: entry.listed,
      ...(needs !== undefined && needs.length > 0 && { needs }),
    };
    byServer.get(server)?.set(item.name, route);
    byName.set(dotted, route);
    byName.set(underscore, route);
    // Only an app may call it (listing/apps.ts): callable by name, listed to no session or search.
    if (isAppOnly(item)) continue;
    routes.push(route);
    if (entry.inBudget) listed.push(route);
    else unlisted.set(server, (unlisted.get(server) ?? 0) + 1);
  }
  const lists = {
    dotted: listed.map(route => route.listed.dotted),
    underscore: listed.map(route => route.listed.underscore),
  };
  return {
    routes,
    byName,
    byServer,
    lists,
    unlisted,
    signature: JSON.stringify(lists.dotted),
    refused,
    refusedByServer,
  };
}
