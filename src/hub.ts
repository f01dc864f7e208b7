// createSession: one MCP Server per client session on a core; createHub and connectLines.
import { HubStdioServerTransport, type LineKind, type StdinReplay } from './wire/stdio-transport.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { lazyAjvValidator } from './tools/lazy-validator.js';
import { hubInstructions } from './tools/instructions.js';
import { registerToolHandlers } from './session/tool-handlers.js';
import { sessionEraLane, sessionFastPath } from './session/lanes.js';
import { sessionSources } from './session/sources.js';
import { sessionInfo } from './session/info.js';
import { sessionTools } from './session/tools.js';
import { sdkClientSide } from './proxy/sessions/sdk-client-side.js';
import { pickNameMode } from './core/naming.js';
import type { ClientSide } from './proxy/sessions/client-side.js';
import { sessionConfig } from './core/config/config.js';
import { HUB_VERSION } from './core/version.js';
import { SURFACE_CAPABILITIES, registerSurface } from './proxy/surface/handlers.js';
import { registerSkills } from './proxy/surface/skills-handlers.js';
import { type EraHooks } from './wire/modern-lane.js';
import { ModernListeners } from './wire/modern-listen.js';
import { withModernListeners } from './proxy/sessions/modern-client-side.js';
import { ClientProtocol, TASKS_CAPABILITY, registerTasks } from './proxy/tasks/handlers.js';
import { listingDigest } from './core/listing-digest.js';
import { nameSession } from './core/telemetry/telemetry.js';
import { experimental } from './tools/process-events.js';
import { labelSession } from './store/audit/log.js';
import { coreInternals, createHubCore, type CoreOptions, type HubCore, type SessionOptions } from './hub-core.js';

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
  const { proxied, table, exposed, ready, ...tools } = sessionTools({
    config,
    log,
    store,
    server,
    client,
    mode,
    servers: core.servers,
    processes: () => core.processes(),
    cwd: options.cwd,
    env: options.env,
    entryPid: options.entryPid,
  });
  const sources = sessionSources(own.sources, subscriptions);
  registerSurface(server, { mode, surface: proxied.surface, sources, client });
  registerSkills(server, core.servers.skills);
  // Tasks (docs/servers.md "Tasks"): the revision and capabilities of the client decide how task-required tools are listed.
  const protocol = new ClientProtocol(client, log);
  // This session's tasks only: another session's task id is unknown here.
  const unregisterTasks = registerTasks(server, proxied.tasks, protocol, client);

  registerToolHandlers({ server, client, log, mode, table, exposed, ready, proxied, protocol, relistWaitMs });

  const id = `s${++sessionSeq}`;
  nameSession(client, id);
  const info = sessionInfo(id, server, options);
  labelSession(client, () => ({ id: `${process.pid}.${id}`, client: server.getClientVersion()?.name }));
  const detachClient = own.clients.attach(client);
  let closing: Promise<void> | undefined;
  const session: Hub = {
    server,
    fastPath: sendRaw => sessionFastPath({ proxied, client, protocol, exposed }, sendRaw),
    eraLane: send =>
      sessionEraLane(
        {
          serverInfo,
          listeners,
          proxied,
          client,
          capabilities,
          instructions: () => hubInstructions(config.paths.db, mode),
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
        await tools.close();
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
