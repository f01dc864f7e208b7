// hub.ts's seam to exposure: which proxied tools one session lists, and the calls it counts.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { HubConfig } from '../core/config/config.js';
import type { Logger } from '../core/logger.js';
import { spell, type NameMode } from '../core/naming.js';
import type { ClientSide } from '../proxy/sessions/client-side.js';
import { ExposureSession, type ExposureView } from '../proxy/exposure/session.js';
import { buildRoutes, type Route } from '../proxy/listing/routes.js';
import type { ProxiedTools } from '../proxy/types.js';
import { searchEntryFor, warmSearchIndex } from './tools-search.js';

export interface ExposedTools {
  /** hub's own tools as listed (tools.search is listed with the proxied tools, when needed). */
  readonly own: Tool[];
  readonly session: ExposureSession;
  /** What this session lists of the proxied tools. */
  readonly listed: Pick<ProxiedTools, 'list'>;
  /** A proxied tool was called by its exposed name (either lane) or through registry.call. */
  countName(name: string): void;
  countTool(server: unknown, tool: unknown): void;
  /**
   * This session installed (or changed) `server`: its tools are listed next after the session's
   * own, and the answer says exactly how this session reaches them (undefined: it has none yet).
   */
  installed(server: string): string | undefined;
  close(): Promise<void>;
}

// Names a next step lists at most (the install result's `tools` has them all).
const NAMES_SHOWN = 20;

const EMPTY = buildRoutes([]);

/** hub.ts's seam to exposure: which proxied tools this client session lists, and calls counted. */
export function exposeTools(deps: {
  config: HubConfig;
  log: Logger;
  client: ClientSide;
  clientName: () => string | undefined;
  proxied: ProxiedTools;
  mode: NameMode;
  /** hub's own tools as the table lists them, tools.search among them. */
  ownListed: readonly Tool[];
  /** The client's working directory (where its project file is looked up); hub's own by default. */
  cwd?: string;
}): ExposedTools {
  const { proxied, mode } = deps;
  const searchName = spell('tools.search', mode);
  const own = deps.ownListed.filter(tool => tool.name !== searchName);
  const listedSearch = deps.ownListed.find(tool => tool.name === searchName);
  if (!listedSearch) throw new Error('tools.search is missing from the tool table');
  const other: NameMode = mode === 'dotted' ? 'underscore' : 'dotted';
  const base = { [mode]: listedSearch, [other]: { ...listedSearch, name: spell('tools.search', other) } } as Record<
    NameMode,
    Tool
  >;
  const table = () => proxied.routes?.() ?? EMPTY;
  const session = new ExposureSession({
    config: deps.config,
    log: deps.log,
    client: deps.client,
    clientName: deps.clientName,
    ...(deps.cwd !== undefined && { cwd: deps.cwd }),
    table,
    ownCount: own.length,
    searchEntry: (scope, plan) => {
      warmSearchIndex(scope);
      return searchEntryFor(base, scope, plan);
    },
    announce: () => {
      if (deps.client.initialized()) deps.client.sendListChanged('tools').catch(() => undefined);
    },
  });
  return {
    own,
    session,
    listed: { list: listMode => session.list(listMode) },
    countName(name) {
      const route = table().byName.get(name);
      if (route) session.count(route);
    },
    countTool(server, tool) {
      if (typeof server !== 'string' || typeof tool !== 'string') return;
      const route = table().byServer.get(server)?.get(tool);
      if (route) session.count(route);
    },
    installed(server) {
      session.installed(server);
      return reachOf(session.view(), server, mode);
    },
    close: () => session.close(),
  };
}

/** How a session reaches the tools of `server`: by the names it lists, or tools.search and registry.call. */
function reachOf(view: ExposureView, server: string, mode: NameMode): string | undefined {
  const all = view.scope.filter(route => route.server === server);
  if (all.length === 0) return undefined;
  const listed = new Set(view.selection.listed);
  const shown = (routes: readonly Route[]) =>
    `${routes
      .slice(0, NAMES_SHOWN)
      .map(route => route[mode])
      .join(', ')}${routes.length > NAMES_SHOWN ? ', …' : ''}`;
  const others = `registry.list { server: "${server}" } (or tools.search { query, server: "${server}" }) gives their input schemas, and registry.call { server: "${server}", tool, arguments } calls them`;
  if (!view.plan.relists)
    return `Your client keeps the tool list it got at start, without these tools (${shown(all)}): ${others}.`;
  const inList = all.filter(route => listed.has(route));
  if (inList.length === all.length) return `Its tools are in your tool list now: call them by name (${shown(inList)}).`;
  if (inList.length > 0)
    return `${inList.length} of its ${all.length} tools are in your tool list now (${shown(inList)}): call them by name. Your client's tool budget leaves out the others: ${others}.`;
  return `Your client's tool budget leaves its tools out of your tool list: ${others}.`;
}
