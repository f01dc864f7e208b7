// What the cold-start lane answers from HUB_HOME: tools, prompts and resources, read once.
import { hubPaths } from '../core/paths.js';
import { pickNameMode, spellText, type NameMode } from '../core/naming.js';
import { logResource, newestProcesses } from '../core/process-log-listing.js';
import { instructionsSectionFromDb } from '../proxy/listing/instructions-section.js';
import { buildRoutes, type RouteTable } from '../proxy/listing/routes.js';
import { buildPromptRoutes } from '../proxy/listing/prompt-routes.js';
import { listedResources, listedTemplates } from '../proxy/listing/resource-lists.js';
import { pageOf, type PagedKind } from '../proxy/listing/pages.js';
import { listsEveryTool } from '../proxy/exposure/plan.js';
import { lackedNeeds } from '../proxy/listing/tool-needs.js';
import { findProjectFile } from '../proxy/exposure/project-lookup.js';
import { isDisabled } from '../proxy/listing/tool-filter.js';
import { toolsForClient } from '../proxy/listing/task-listing.js';
import { hasAppMeta, isUiUri } from '../proxy/listing/apps.js';
import { leanProcesses } from '../store/cold-processes.js';
import {
  leanExposure,
  leanHome,
  leanIntegrity,
  leanServers,
  leanSettingsValid,
  leanToolNames,
  type LeanServer,
} from '../store/cold-read.js';
import type { ServerWithTools } from '../store/schema.js';
import type { FastStartListing } from './listing.js';

// What the cold-start lane answers from HUB_HOME. Each part is read and built once per lane (the
// store is read once, cold-read.ts holdReads): a client asks tools/list, prompts/list and
// resources/list at once, and each used to read and name every server's cached tools again.
// undefined anywhere means: the full hub answers this one.

type Json = Record<string, unknown>;

export const SURFACE_METHODS: Readonly<Record<string, PagedKind>> = {
  'prompts/list': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
};

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const once = <T>(make: () => T): (() => T) => {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
};

export interface LaneAnswers {
  /** The spelling (it decides the instructions too), or undefined when only the full config can tell. */
  nameMode(): NameMode | undefined;
  /** The build's instructions plus the installed servers' section, as the full hub builds it. */
  instructions(mode: NameMode): { instructions?: string };
  /** tools/list, and the proxied tools listed (dotted, as JSON: the hand-off's digest is of it). */
  tools(
    mode: NameMode,
    client: string | undefined,
    takesTasks: boolean,
    offers?: Json,
  ): { tools: Json[]; listed: string } | undefined;
  /** prompts/list, resources/list, resources/templates/list: one page, paged as the full hub pages. */
  surface(method: string, params: unknown, mode: NameMode): Json | undefined;
}

export function laneAnswers(listing: FastStartListing, env: NodeJS.ProcessEnv): LaneAnswers {
  const home = leanHome(env);
  const servers = once((): LeanServer[] | undefined =>
    home === undefined ? undefined : leanServers(home, listing.storeVersion),
  );
  // Per-server settings and tool integrity apply here as in the full hub (proxy/listing/tool-filter.ts).
  const routes = once((): RouteTable | undefined => {
    const integrity = home === undefined ? undefined : leanIntegrity(home);
    const all = servers();
    return all && integrity ? buildRoutes(all as unknown as ServerWithTools[], { integrity }) : undefined;
  });
  // A disabled server lists nothing (proxy/listing/tool-filter.ts), as in the full hub.
  const enabled = once(() => servers()?.filter(server => !isDisabled(server)) as ServerWithTools[] | undefined);
  // hub's own resources: its static ones, then the logs of the newest recorded processes.
  const ownResources = once((): Json[] | undefined => {
    const processes = home === undefined ? undefined : leanProcesses(home, listing.storeVersion);
    if (!processes) return undefined;
    return [...listing.surface.resources, ...newestProcesses(processes).map(process => ({ ...logResource(process) }))];
  });

  return {
    nameMode() {
      // An invalid hub setting is the full hub's to refuse (server.ts): initialize is not answered here.
      if (!leanSettingsValid(env)) return undefined;
      const setting = home === undefined ? undefined : leanToolNames(env, home);
      return setting && pickNameMode(setting);
    },

    instructions(mode) {
      const section = home === undefined ? '' : spellText(instructionsSectionFromDb(hubPaths(home).db), mode);
      const instructions = (listing.initialize[mode].instructions ?? '') + section;
      return instructions === '' ? {} : { instructions };
    },

    tools(mode, client, takesTasks, offers) {
      const table = routes();
      if (!table || home === undefined) return undefined;
      // Only a session that lists every proxied tool is answered here (proxy/exposure/plan.ts decides);
      // a project file, search mode or a capped client's choice is the full hub's.
      const exposure = leanExposure(env, home);
      const own = listing.tools[mode].length;
      if (!exposure || !listsEveryTool(exposure, client, own, table.routes.length)) return undefined;
      if (findProjectFile([process.cwd()]) !== undefined) return undefined;
      // A tool this client lacks a capability for is listed marked (proxy/listing/tool-needs.ts): the full hub's.
      if (table.routes.some(route => lackedNeeds(route.needs, offers).length > 0)) return undefined;
      // Tools with MCP Apps metadata are listed by whether the session takes apps (listing/apps.ts): the full hub's.
      if (table.lists[mode].some(tool => hasAppMeta(tool))) return undefined;
      return {
        tools: toolsForClient([...listing.tools[mode], ...table.lists[mode]], takesTasks),
        listed: table.signature,
      };
    },

    surface(method, params, mode) {
      const kind = SURFACE_METHODS[method];
      const records = enabled();
      if (!kind || !records || (params !== undefined && !isObject(params))) return undefined;
      let items: Json[];
      if (kind === 'prompts') items = [...buildPromptRoutes(records).lists[mode], ...listing.surface.prompts];
      else if (kind === 'resourceTemplates')
        items = [...listedTemplates(records), ...listing.surface.resourceTemplates];
      else {
        const own = ownResources();
        if (!own) return undefined;
        items = [...listedResources(records), ...own];
        // Who is shown an app's view depends on the session (listing/apps.ts): the full hub's.
        if (items.some(item => isUiUri(item.uri))) return undefined;
      }
      const page = pageOf(kind, items, params?.cursor);
      // A bad cursor is the full hub's to refuse.
      if ('error' in page) return undefined;
      return { [kind]: page.items, ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }) };
    },
  };
}
