// createHubCore: what one hub process shares between its client sessions.
import type { HubConfig } from './core/config/config.js';
import { watchConfig } from './core/config/watch.js';
import type { Logger } from './core/logger.js';
import type { SessionInfo } from './session/info.js';
import { pickNameMode, spellText } from './core/naming.js';
import { startTelemetry } from './core/telemetry/start.js';
import type { ProcessManager } from './process/manager.js';
import { clientSessions, type ClientSessions } from './proxy/sessions/client-sessions.js';
import type { ResourceSource } from './proxy/surface/resource-source.js';
import { createServerManager, type ServerManager } from './proxy/server-manager.js';
import { sharedSubscriptions, type SharedSubscriptions } from './proxy/surface/shared-subscriptions.js';
import { exposedSpelling } from './registry/installed/servers.js';
import type { Store } from './store/store.js';
import { openAudit } from './store/audit/log.js';
import { createHubResources } from './tools/hub-resources.js';
import { lazyProcessManager } from './tools/processes.js';
import { serverListResult } from './tools/server-list.js';

export interface CoreOptions {
  config: HubConfig;
  log: Logger;
  store: Store;
}

/** What the core needs of a session: to close it with the core. */
interface CoreSession {
  close(): Promise<void>;
}

// One hub per user (issue 15, docs/shared-hub.md): the core (children, processes, store watch,
// hub's resources) is built once per process; a session (one MCP Server, its naming, exposure,
// roots, capabilities) per client. The in-process hub is a core with one session.

/** What a session is built from besides the core: who is on the other end and where it runs. */
export type { SessionInfo } from './session/info.js';

export interface SessionOptions {
  /** What carries the session: the in-process stdio hub, an entry over the socket, or Streamable HTTP. */
  readonly transport: 'stdio' | 'socket' | 'http';
  /** The client's working directory (its entry's cwd): relative start_process cwd, the project file. */
  readonly cwd?: string;
  /** The client's environment (its entry's env): start_process's base env, per-session HUB_* settings. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly relistWaitMs?: number;
  /** The client's entry process (a socket session's hello pid; a stdio hub is its own entry). */
  readonly entryPid?: number;
}

/** One attached session, as `hub status` and the dashboard show it. */
/** Everything one hub process shares between its sessions. */
export interface HubCore {
  readonly config: HubConfig;
  readonly log: Logger;
  readonly store: Store;
  /** The child MCP servers, shared by every session (per-session servers get one slot per session). */
  readonly servers: ServerManager;
  /** The dev-process manager, loaded on first use (the process code is not needed to list). */
  processes(): Promise<ProcessManager>;
  /** The sessions attached now. */
  sessions(): SessionInfo[];
  /** Sessions attached now (the shared hub exits after sharedHub.idleMs with none). */
  sessionCount(): number;
  /** Called with the new count each time a session attaches or closes. */
  onSessionsChanged(listener: (count: number) => void): void;
  /** Closes every session and the child servers; dev processes keep running. */
  close(): Promise<void>;
}

// What a session needs of its core beyond the public face.
export interface CoreInternals {
  readonly clients: ClientSessions;
  readonly resources: SharedSubscriptions;
  readonly sources: readonly ResourceSource[];
  attach(session: CoreSession, info: () => SessionInfo): void;
  detach(session: CoreSession): void;
}
const internals = new WeakMap<HubCore, CoreInternals>();

/** The parts of a core its sessions use (hub.ts createSession); only for cores made here. */
export function coreInternals(core: HubCore): CoreInternals {
  const own = internals.get(core);
  if (!own) throw new Error('createSession needs a core made by createHubCore');
  return own;
}

export function createHubCore({ config, log, store }: CoreOptions): HubCore {
  const audit = openAudit(config, log, store);
  const sessions = new Map<CoreSession, () => SessionInfo>();
  const listeners: ((count: number) => void)[] = [];
  const changed = () => {
    for (const listener of listeners) listener(sessions.size);
  };
  // What the proxy sees of the clients: every attached session (proxy/sessions/client-sessions.ts).
  const clients = clientSessions();
  const deps = { config, log, store, client: clients };
  const servers = createServerManager(deps);
  const processes = lazyProcessManager(deps);
  let processesUsed = false;
  const mode = pickNameMode(config.toolNames);
  // hub's own resources (hub://processes, hub://servers, hub://processes/{id}/log).
  const hubResources = createHubResources({
    store,
    paths: config.paths,
    log,
    processes: () => ((processesUsed = true), processes()),
    async servers() {
      const spell = exposedSpelling(() => servers.routes(), mode);
      const { structured, text } = await serverListResult({ config, store, manager: servers, spell });
      return { structured: { ...structured, next: spellText(structured.next, mode) }, text: spellText(text, mode) };
    },
    notifyUpdated: uri => void clients.sendResourceUpdated(uri).catch(() => undefined),
    notifyListChanged: () => void clients.sendListChanged('resources').catch(() => undefined),
  });
  // Every set of resources hub lists, in this order (the cold-start lane lists them the same way):
  // the installed servers', then hub's own. hub:// URIs are hub's: the proxied source never takes them.
  const sources: ResourceSource[] = [
    ...(servers.skills ? [servers.skills.resources] : []),
    servers.surface.resources,
    hubResources,
  ];
  // config.json edits apply to this running hub (docs/configuration.md "Configuration"); integrity decides
  // which tools are listed, so the routes are rebuilt for it.
  const unwatchConfig = watchConfig(config, log, changed => {
    if (changed.includes('integrity'))
      servers.reload().catch(error => log.warn({ err: error }, 'could not apply the integrity setting'));
  });
  // OpenTelemetry when OTEL_* asks for it (docs/telemetry.md); nothing loaded otherwise.
  const stopTelemetry = startTelemetry(process.env, log);
  let closing: Promise<void> | undefined;
  const core: HubCore = {
    config,
    log,
    store,
    servers,
    processes: () => ((processesUsed = true), processes()),
    sessions: () => [...sessions.values()].map(info => info()),
    sessionCount: () => sessions.size,
    onSessionsChanged: listener => void listeners.push(listener),
    close() {
      closing ??= (async () => {
        unwatchConfig();
        await Promise.allSettled([...sessions.keys()].map(session => session.close()));
        hubResources.close();
        await Promise.allSettled([
          servers.close(),
          processesUsed ? processes().then(manager => manager.close()) : undefined,
        ]);
        // What this hub's sessions did is on disk before whoever closed it goes on.
        audit.flush();
        await stopTelemetry();
      })();
      return closing;
    },
  };
  internals.set(core, {
    clients,
    sources,
    resources: sharedSubscriptions(() => sources),
    attach: (session, info) => (sessions.set(session, info), changed()),
    detach: session => {
      if (sessions.delete(session)) changed();
    },
  });
  return core;
}
