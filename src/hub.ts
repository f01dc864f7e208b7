import { HubStdioServerTransport, type LineKind, type StdinReplay } from './wire/stdio-transport.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { lazyAjvValidator } from './tools/lazy-validator.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { RpcError } from './wire/rpc-error.js';
import { createFastPath } from './wire/fast-path.js';
import { currentStoreHealth } from './store/health.js';
import type { ToolDeps } from './tools/define.js';
import { hubInstructions } from './tools/instructions.js';
import { sdkClientSide } from './proxy/sessions/sdk-client-side.js';
import { createToolListing } from './tools/listing.js';
import { pickNameMode, spellText } from './core/naming.js';
import { createProcessTools } from './tools/processes.js';
import type { ClientSide } from './proxy/sessions/client-side.js';
import type { SessionExtra } from './proxy/calls/forward.js';
import { sessionConfig } from './core/config/config.js';
import { createRegistryTools } from './tools/registry.js';
import { createToolTable } from './tools/table.js';
import { exposeTools } from './tools/exposed-tools.js';
import { createToolsSearchTool } from './tools/tools-search.js';
import { HUB_VERSION } from './core/version.js';
import { SURFACE_CAPABILITIES, registerSurface } from './proxy/surface/handlers.js';
import { registerSkills } from './proxy/surface/skills-handlers.js';
import type { ResourceSource } from './proxy/surface/resource-source.js';
import { createModernLane, type EraHooks } from './wire/modern-lane.js';
import { ModernListeners } from './wire/modern-listen.js';
import { withModernListeners } from './proxy/sessions/modern-client-side.js';
import { ClientProtocol, TASKS_CAPABILITY, callAsTask, registerTasks } from './proxy/tasks/handlers.js';
import { toolsForClient } from './proxy/listing/task-listing.js';
import { appRoute } from './proxy/exposure/app-calls.js';
import { modernCapabilities } from './wire/tasks-extension.js';
import { listingDigest } from './core/listing-digest.js';
import { nameSession, tracedCall } from './core/telemetry/telemetry.js';
import { experimental } from './tools/process-events.js';
import { auditLog, labelSession } from './store/audit/log.js';
import {
  coreInternals,
  createHubCore,
  type CoreOptions,
  type HubCore,
  type SessionInfo,
  type SessionOptions,
} from './hub-core.js';

export { createHubCore, type HubCore, type SessionInfo, type SessionOptions } from './hub-core.js';

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

// How long a tool call that changed the listing holds its result for the client's re-list.
const RELIST_WAIT_MS = 500;

export interface HubOptions extends CoreOptions {
  /** Upper bound on holding a result until the client re-lists (clients that ignore list_changed never do). */
  relistWaitMs?: number | undefined;
}

let sessionSeq = 0;

/** One client session on a core: its own Server, naming, exposure, roots and capabilities. */
export function createSession(core: HubCore, options: SessionOptions): Hub {
  const own = coreInternals(core);
  const { log, store } = core;
  const relistWaitMs = options.relistWaitMs ?? RELIST_WAIT_MS;
  // This client's naming mode and exposure (its entry's HUB_* variables); HUB_HOME stays the core's.
  const config = sessionConfig(core.config, options.env);
  const mode = pickNameMode(config.toolNames);
  const serverInfo = { name: 'hub', title: 'hub', version: HUB_VERSION };
  const capabilities = { tools: { listChanged: true }, ...SURFACE_CAPABILITIES, tasks: TASKS_CAPABILITY, experimental };
  const server = new Server(serverInfo, {
    capabilities,
    // Installed servers' instructions as db.json holds them now (the cold-start lane adds the same).
    instructions: hubInstructions(config.paths.db, mode),
    jsonSchemaValidator: lazyAjvValidator(),
  });
  // This session's resource subscriptions: resources/updated reaches it only for these.
  const subscribed = new Set<string>();
  const subscriptions = {
    subscribe: (uri: string) => own.resources.subscribe(uri, subscribed),
    unsubscribe: (uri: string) => own.resources.unsubscribe(uri, subscribed),
  };
  const listeners = new ModernListeners(subscriptions);
  // What the proxy sees of this client: this Server's side of the connection, and its listens.
  const client: ClientSide = {
    ...withModernListeners(sdkClientSide(server), listeners),
    wantsResource: uri => subscribed.has(uri),
    ...(options.env && { env: options.env }),
  };
  const exposure = { installed: (name: string) => exposed.installed(name) };
  const deps: ToolDeps = { config, log, store, server, client, exposure, sessionEnv: options.env };
  const processGroup = createProcessTools(deps, {
    manager: () => core.processes(),
    base: { cwd: options.cwd, env: options.env, entryPid: options.entryPid },
  });
  const registryGroup = createRegistryTools(deps, core.servers);
  const proxied = registryGroup.proxied;
  // Which proxied tools this session lists (tools/exposed-tools.ts); tools.search finds the rest.
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
    ...(options.cwd !== undefined && { cwd: options.cwd }),
  });
  const ready = createToolListing(exposed.own, exposed.listed, mode, proxied);
  // The core's sources, with this session's subscriptions kept apart.
  const sources: ResourceSource[] = own.sources.map(source => ({
    resources: () => source.resources(),
    templates: () => source.templates(),
    owns: uri => source.owns(uri),
    read: (uri, call) => source.read(uri, call),
    subscribe: async uri => void (await subscriptions.subscribe(uri)),
    unsubscribe: uri => subscriptions.unsubscribe(uri),
    ...(source.complete && { complete: (params, call) => source.complete!(params, call) }),
  }));
  registerSurface(server, { mode, surface: proxied.surface, sources, client });
  registerSkills(server, core.servers.skills);
  // Tasks (docs/servers.md "Tasks"): the revision and capabilities of the client decide how task-required tools are listed.
  const protocol = new ClientProtocol(client, log);
  // This session's tasks only: another session's task id is unknown here.
  const unregisterTasks = registerTasks(server, proxied.tasks, protocol, client);

  // Answered from the ready listing, never after I/O: a client re-lists right after
  // list_changed, and the agent's next turn must have the new tools. Another hub's changes are
  // picked up behind the answer and announced with list_changed.
  server.setRequestHandler(ListToolsRequestSchema, () => {
    const tools = toolsForClient(ready.tools(), protocol.takesTasks());
    ready.served();
    proxied.refresh?.().catch(error => log.debug({ err: error }, 'could not re-read the installed servers'));
    return { tools };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, untagged) => {
    // Calls carry their session: a child's request to the person during one goes back here.
    const extra: SessionExtra = { ...untagged, session: client };
    const { name, arguments: args, task } = request.params;
    const tool = table.find(name);
    if (task) return callAsTask(proxied.tasks, { name, args, task, ownTool: tool !== undefined }, extra);
    if (tool) {
      if (tool.name === 'registry.call') exposed.countTool(args?.server, args?.tool);
      const before = ready.version();
      const call = { server: 'hub', tool: tool.name, meta: extra._meta, session: client };
      const result = await tracedCall(call, () => table.call(tool, args, extra));
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
    // An MCP App's own name for its server's tool, through a host with the extension (docs/apps.md).
    const app = appRoute(client.capabilities(), proxied.routes?.(), name);
    if (typeof app === 'string') throw new RpcError(ErrorCode.InvalidParams, app);
    const appForward = app && proxied.find(app.dotted);
    if (appForward) return appForward(args, extra);
    // RpcError, not McpError: the client adds the `MCP error -32602:` prefix itself.
    throw new RpcError(
      ErrorCode.InvalidParams,
      spellText(`Unknown tool: ${name}. Call tools/list (or registry.list) to see the available tools.`, mode),
    );
  });

  const id = `s${++sessionSeq}`;
  nameSession(client, id);
  const since = new Date().toISOString();
  const info = (): SessionInfo => {
    const version = server.getClientVersion();
    return {
      id,
      transport: options.transport,
      ...(version && { client: { name: version.name, version: version.version } }),
      ...(options.cwd !== undefined && { cwd: options.cwd }),
      since,
    };
  };
  labelSession(client, () => ({ id: `${process.pid}.${id}`, client: server.getClientVersion()?.name }));
  const detachClient = own.clients.attach(client);
  let closing: Promise<void> | undefined;
  const session: Hub = {
    server,
    fastPath: sendRaw => {
      // Built here from the proxy's resolver: proxied tools/call below the SDK Server, for this session.
      const resolve = proxied.fast;
      const lane = resolve && createFastPath(resolve, sendRaw, client);
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
          ...(proxied.extensionTasks && {
            tasks: { handle: (method, params) => proxied.extensionTasks!.handle(method, params, client) },
          }),
          discover: () => ({
            legacyVersions: SUPPORTED_PROTOCOL_VERSIONS,
            capabilities: modernCapabilities(capabilities),
            serverInfo,
            instructions: hubInstructions(config.paths.db, mode),
          }),
        },
        send,
      ),
    proxiedSignature: () => JSON.stringify(exposed.listed.list('dotted')),
    // Detaches this session only: the core's children keep serving the others.
    close() {
      closing ??= (async () => {
        detachClient();
        unregisterTasks();
        own.detach(session);
        await core.servers.closeSession(client);
        listeners.closeAll();
        await Promise.allSettled([...subscribed].map(uri => own.resources.unsubscribe(uri, subscribed)));
        await Promise.allSettled([registryGroup.close(), processGroup.close?.(), exposed.close()]);
        await server.close().catch(() => undefined);
      })();
      return closing;
    },
  };
  own.attach(session, info);
  return session;
}

// The factory: no I/O at import, everything stateful built here from its dependencies. The
// in-process hub: a core with one session, closed together.
export function createHub(options: HubOptions): Hub {
  const core = createHubCore(options);
  const session = createSession(core, {
    transport: 'stdio',
    entryPid: process.pid,
    ...(options.relistWaitMs !== undefined && { relistWaitMs: options.relistWaitMs }),
  });
  return {
    ...session,
    async close() {
      await session.close();
      await core.close();
    },
  };
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
  if (handOff?.listed !== undefined && handOff.listed !== listingDigest(hub.proxiedSignature())) {
    hub.server.sendToolListChanged().catch(() => undefined);
  }
  return transport;
}
