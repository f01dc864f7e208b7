// A session's tools: hub's own (registry, processes, tools_search) in one table, the proxied
// ones, and which of them this session lists (its exposure).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { NameMode } from '../core/naming.js';
import type { ProcessManager } from '../process/manager.js';
import type { ServerManager } from '../proxy/server-manager.js';
import type { ClientSide } from '../proxy/sessions/client-side.js';
import { currentStoreHealth } from '../store/health.js';
import { auditLog } from '../store/audit/log.js';
import type { ToolDeps } from '../tools/define.js';
import { exposeTools } from '../tools/exposed-tools.js';
import { createToolListing } from '../tools/listing.js';
import { createProcessTools } from '../tools/processes.js';
import { createRegistryTools } from '../tools/registry.js';
import { createToolTable } from '../tools/table.js';
import { createToolsSearchTool } from '../tools/tools-search.js';

export interface SessionToolsDeps extends Omit<ToolDeps, 'server' | 'client' | 'exposure' | 'sessionEnv'> {
  readonly server: Server;
  readonly client: ClientSide;
  readonly mode: NameMode;
  /** The core's managers, shared by its sessions. */
  readonly servers: ServerManager;
  readonly processes: () => Promise<ProcessManager>;
  /** This session's client: where start_process runs, its env, its entry's pid. */
  readonly cwd?: string | undefined;
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  readonly entryPid?: number | undefined;
}

export function sessionTools(deps: SessionToolsDeps) {
  const { config, log, store, server, client, mode, cwd, env } = deps;
  const exposure = { installed: (name: string) => exposed.installed(name) };
  const toolDeps: ToolDeps = { config, log, store, server, client, exposure, sessionEnv: env };
  const processGroup = createProcessTools(toolDeps, {
    manager: deps.processes,
    base: { cwd, env, entryPid: deps.entryPid },
  });
  const registryGroup = createRegistryTools(toolDeps, deps.servers);
  const proxied = registryGroup.proxied;
  // Which proxied tools this session lists (tools/exposed-tools.ts); tools_search finds the rest.
  const searchTool = createToolsSearchTool({ session: () => exposed.session, mode });
  const table = createToolTable([...registryGroup.tools, searchTool, ...processGroup.tools], {
    log,
    resultCapBytes: config.resultCapBytes,
    mode,
    spelling: () => ready.spelling(),
    warning: async () => (await currentStoreHealth(config.paths, () => store.read())).warning,
    audit: auditLog(config.paths),
    decorate: processGroup.decorate,
  });
  const exposed = exposeTools({
    config,
    log,
    client,
    clientName: () => server.getClientVersion()?.name,
    proxied,
    mode,
    ownListed: table.list(),
    ...(cwd !== undefined && { cwd }),
  });
  const ready = createToolListing(exposed.own, exposed.listed, mode, proxied);
  const close = () => Promise.allSettled([registryGroup.close(), processGroup.close?.(), exposed.close()]);
  return { proxied, table, exposed, ready, close };
}
