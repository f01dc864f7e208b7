import { HubStdioServerTransport, type LineKind, type StdinReplay } from './wire/stdio-transport.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { HubConfig } from './core/config.js';
import type { Logger } from './core/logger.js';
import { RpcError } from './wire/rpc-error.js';
import { currentStoreHealth } from './store/health.js';
import type { Store } from './store/store.js';
import type { ToolDeps } from './tools/define.js';
import { instructionsSectionFromDb } from './proxy/instructions-section.js';
import { sdkClientSide } from './proxy/sdk-client-side.js';
import { createToolListing } from './tools/listing.js';
import { pickNameMode, spellText } from './core/naming.js';
import { createProcessTools } from './tools/processes.js';
import { createHubResources } from './tools/hub-resources.js';
import { createRegistryTools } from './tools/registry.js';
import { createToolTable } from './tools/table.js';
import { exposeTools } from './tools/exposed-tools.js';
import { createToolsSearchTool } from './tools/tools-search.js';
import { HUB_VERSION } from './core/version.js';
import { SURFACE_CAPABILITIES, registerSurface } from './proxy/surface-handlers.js';
import type { ResourceSource } from './proxy/resource-source.js';
import { createModernLane, type EraHooks } from './wire/modern-lane.js';
import { ModernListeners } from './wire/modern-listen.js';
import { withModernListeners } from './proxy/modern-client-side.js';
import { ClientProtocol, TASKS_CAPABILITY, callAsTask, registerTasks } from './proxy/task-handlers.js';
import { toolsForClient } from './proxy/task-listing.js';

export interface Hub {
  readonly server: Server;
  /** The transport-level lane for proxied tools/call (see wire/fast-path.ts), when there is one. */
  fastPath(
    sendRaw: (line: string, kind: LineKind) => Promise<void>,
  ): ((message: Record<string, unknown>) => boolean) | undefined;
  /** The 2026-07-28 lane for one session (server/discover, per-request era, subscriptions/listen). */
  eraLane(send: (message: Record<string, unknown>) => Promise<void>): EraHooks;
  /** The proxied tools listed now (dotted, as JSON): what a client that listed earlier compares against. */
  proxiedSignature(): string;
  /** Closes child MCP servers; leaves start_process processes running (they are detached). */
  close(): Promise<void>;
}

// Written with dotted names; spelled the way the client sees them when the server is built.
const INSTRUCTIONS =
  'hub finds, installs and runs other MCP servers (registry.search → registry.install; their tools then appear as <server>.<tool>, ' +
  'or call them with registry.call after registry.list {server}; tools.search finds installed tools that are not listed) ' +
  'and runs long-lived dev processes that survive restarts ' +
  '(start_process with wait_for, list_processes, get_process_logs with a cursor, kill_process, get_free_port; ' +
  'send_input, get_process_screen and restart_process for prompts, REPLs and terminals).';

// The SDK's default validator (an Ajv instance, used only for elicitation results) is built on
// first use instead of at start.
function lazyAjvValidator(): jsonSchemaValidator {
  let ajv: AjvJsonSchemaValidator | undefined;
  return { getValidator: schema => (ajv ??= new AjvJsonSchemaValidator()).getValidator(schema) };
}

// How long a tool call that changed the listing holds its result for the client's re-list.
const RELIST_WAIT_MS = 500;

export interface HubOptions {
  config: HubConfig;
  log: Logger;
  store: Store;
  /** Upper bound on holding a result until the client re-lists (clients that ignore list_changed never do). */
  relistWaitMs?: number | undefined;
}

// The factory: no I/O at import, everything stateful built here from its dependencies.
export function createHub({ config, log, store, relistWaitMs = RELIST_WAIT_MS }: HubOptions): Hub {
  // One spelling for every client (README "Tool names"): it is known before any client connects.
  const mode = pickNameMode(config.toolNames);
  const serverInfo = { name: 'hub', title: 'hub', version: HUB_VERSION };
  const capabilities = { tools: { listChanged: true }, ...SURFACE_CAPABILITIES, tasks: TASKS_CAPABILITY };
  const server = new Server(serverInfo, {
    capabilities,
    // Installed servers' instructions as db.json holds them now (the cold-start lane adds the same).
    instructions: spellText(INSTRUCTIONS + instructionsSectionFromDb(config.paths.db), mode),
    jsonSchemaValidator: lazyAjvValidator(),
  });
  // What the proxy sees of the client: this Server's side of the connection, and its listens.
  const listeners = new ModernListeners({
    async subscribe(uri) {
      const source = resourceSources.find(candidate => candidate.owns(uri));
      if (!source) return false;
      await source.subscribe(uri);
      return true;
    },
    async unsubscribe(uri) {
      await Promise.all(resourceSources.filter(source => source.owns(uri)).map(source => source.unsubscribe(uri)));
    },
  });
  const client = withModernListeners(sdkClientSide(server), listeners);
  const deps: ToolDeps = { config, log, store, server, client };
  const processGroup = createProcessTools(deps);
  const registryGroup = createRegistryTools(deps);
  const proxied = registryGroup.proxied;
  // Which proxied tools this session lists (tools/exposed-tools.ts); tools.search finds the rest.
  const searchTool = createToolsSearchTool({ session: () => exposed.session, mode });
  const table = createToolTable([...registryGroup.tools, searchTool, ...processGroup.tools], {
    log,
    resultCapBytes: config.resultCapBytes,
    mode,
    spelling: () => ready.spelling(),
    warning: async () => (await currentStoreHealth(config.paths, () => store.read())).warning,
  });
  const exposed = exposeTools({
    config,
    log,
    client,
    clientName: () => server.getClientVersion()?.name,
    proxied,
    mode,
    ownListed: table.list(),
  });
  const ready = createToolListing(exposed.own, exposed.listed, mode, proxied);
  // hub's own resources (hub://processes, hub://servers, hub://processes/{id}/log).
  const hubResources = createHubResources({
    store,
    paths: config.paths,
    log,
    processes: processGroup.manager,
    servers: registryGroup.servers,
    notifyUpdated: uri => {
      if (client.initialized()) client.sendResourceUpdated(uri).catch(() => undefined);
    },
    notifyListChanged: () => {
      if (client.initialized()) client.sendListChanged('resources').catch(() => undefined);
    },
  });
  // Every set of resources hub lists, in this order (the cold-start lane lists them the same way):
  // the installed servers', then hub's own. hub:// URIs are hub's: the proxied source never takes them.
  const resourceSources: ResourceSource[] = [...(proxied.surface ? [proxied.surface.resources] : []), hubResources];
  registerSurface(server, { mode, surface: proxied.surface, sources: resourceSources });
  // Tasks (README "Tasks"): the revision and capabilities of the client decide how task-required tools are listed.
  const protocol = new ClientProtocol(client, log);
  registerTasks(server, proxied.tasks, protocol);

  // Answered from the ready listing, never after I/O: a client re-lists right after
  // list_changed, and the agent's next turn must have the new tools. Another hub's changes are
  // picked up behind the answer and announced with list_changed.
  server.setRequestHandler(ListToolsRequestSchema, () => {
    const tools = toolsForClient(ready.tools(), protocol.takesTasks());
    ready.served();
    proxied.refresh?.().catch(error => log.debug({ err: error }, 'could not re-read the installed servers'));
    return { tools };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args, task } = request.params;
    const tool = table.find(name);
    if (task) return callAsTask(proxied.tasks, { name, args, task, ownTool: tool !== undefined }, extra);
    if (tool) {
      if (tool.name === 'registry.call') exposed.countTool(args?.server, args?.tool);
      const before = ready.version();
      const result = await table.call(tool, args, extra);
      // It changed the tools (install, uninstall, a first start): list_changed went out, so the
      // result waits until the client has the new listing, bounded for clients that never re-list.
      const after = ready.version();
      if (after !== before && client.initialized()) await ready.relisted(after, relistWaitMs, extra.signal);
      return result;
    }
    let forward = proxied.find(name);
    if (!forward) {
      // Perhaps installed by another hub since this one last looked.
      await proxied.refresh?.();
      forward = proxied.find(name);
    }
    if (forward) {
      exposed.countName(name);
      return forward(args, extra);
    }
    // RpcError, not McpError: the client adds the `MCP error -32602:` prefix itself.
    throw new RpcError(
      ErrorCode.InvalidParams,
      spellText(`Unknown tool: ${name}. Call tools/list (or registry.list) to see the available tools.`, mode),
    );
  });

  return {
    server,
    fastPath: sendRaw => {
      const lane = proxied.fastPath?.(sendRaw);
      // Every message passes here first: the client's initialize tells its protocol revision.
      return message => {
        protocol.note(message);
        const taken = lane?.(message) ?? false;
        const params = message.params as { name?: unknown } | undefined;
        if (taken && typeof params?.name === 'string') exposed.countName(params.name);
        return taken;
      };
    },
    eraLane: send =>
      createModernLane(
        {
          serverInfo,
          listeners,
          discover: () => ({
            legacyVersions: SUPPORTED_PROTOCOL_VERSIONS,
            capabilities,
            serverInfo,
            instructions: spellText(INSTRUCTIONS + instructionsSectionFromDb(config.paths.db), mode),
          }),
        },
        send,
      ),
    proxiedSignature: () => JSON.stringify(exposed.listed.list('dotted')),
    async close() {
      listeners.closeAll();
      hubResources.close();
      await Promise.allSettled([registryGroup.close(), processGroup.close?.(), exposed.close()]);
      await server.close().catch(() => undefined);
    },
  };
}

// One hub per user (issue 15, docs/shared-hub.md): the core (children, processes, store watch)
// is built once per process; a session (one MCP Server, its naming, exposure, roots) per client.

/** What a session is built from besides the core: who is on the other end and where it runs. */
export interface SessionOptions {
  /** What carries the session: the in-process stdio hub, an entry over the socket, or Streamable HTTP. */
  readonly transport: 'stdio' | 'socket' | 'http';
  /** The client's working directory (its entry's cwd): relative start_process cwd, the project file. */
  readonly cwd?: string;
  /** The client's environment (its entry's env): start_process's base env, per-session HUB_* settings. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly relistWaitMs?: number;
}

/** Everything one hub process shares between its sessions. */
export interface HubCore {
  readonly config: HubConfig;
  readonly log: Logger;
  readonly store: Store;
  /** Sessions attached now (the shared hub exits after sharedHub.idleMs with none). */
  sessionCount(): number;
  /** Called with the new count each time a session attaches or closes. */
  onSessionsChanged(listener: (count: number) => void): void;
  /** Closes every session and the child servers; dev processes keep running. */
  close(): Promise<void>;
}

// A first cut: each session still builds its own proxy (children not yet shared); the interface
// is what the shared hub and Streamable HTTP build on.
interface CoreInternals {
  attach(session: Hub): void;
  detach(session: Hub): void;
}
const internals = new WeakMap<HubCore, CoreInternals>();

export function createHubCore({ config, log, store }: Omit<HubOptions, 'relistWaitMs'>): HubCore {
  const sessions = new Set<Hub>();
  const listeners: ((count: number) => void)[] = [];
  const changed = () => {
    for (const listener of listeners) listener(sessions.size);
  };
  const core: HubCore = {
    config,
    log,
    store,
    sessionCount: () => sessions.size,
    onSessionsChanged: listener => void listeners.push(listener),
    async close() {
      await Promise.allSettled([...sessions].map(session => session.close()));
    },
  };
  internals.set(core, {
    attach: session => (sessions.add(session), changed()),
    detach: session => (sessions.delete(session), changed()),
  });
  return core;
}

export function createSession(core: HubCore, options: SessionOptions): Hub {
  const own = internals.get(core);
  if (!own) throw new Error('createSession needs a core made by createHubCore');
  const hub = createHub({ config: core.config, log: core.log, store: core.store, relistWaitMs: options.relistWaitMs });
  const session: Hub = {
    ...hub,
    async close() {
      own.detach(session);
      await hub.close();
    },
  };
  own.attach(session);
  return session;
}

/**
 * Connects a session to a stream of JSON-RPC lines (stdin/stdout, or an entry's socket): the
 * fast path and the 2026 lane before the SDK Server, the cold-start lane's bytes replayed first.
 */
export async function connectLines(
  hub: Hub,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  handOff?: StdinReplay & { readonly listed?: string },
): Promise<HubStdioServerTransport> {
  const transport = new HubStdioServerTransport(input, output, handOff);
  // Proxied tools/call can skip the SDK Protocol (validated once by the child lane); everything
  // else, hub's own tools included, goes through the SDK Server.
  const fastPath = hub.fastPath((line, kind) => transport.sendRaw(line, kind));
  if (fastPath) transport.intercept = fastPath;
  transport.era = hub.eraLane(message => transport.send(message as never));
  await hub.server.connect(transport);
  // Another hub changed the installed servers between the lane's tools/list and now.
  if (handOff?.listed !== undefined && handOff.listed !== hub.proxiedSignature()) {
    hub.server.sendToolListChanged().catch(() => undefined);
  }
  return transport;
}
