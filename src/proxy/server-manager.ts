// The proxy's face: createServerManager assembles slots, routes, calls, surface, tasks and auto-start.
import { HubError } from '../core/errors.js';
import type { CachedTool } from '../store/schema.js';
import { autoStartOnInitialize } from './slots/auto-start.js';
import { DEFAULT_BACKOFF } from './slots/backoff.js';
import { CallForwarding } from './calls/forwarding.js';
import { listChangedAnnouncer, relayRootsChanged } from './slots/list-changed.js';
import { readRecordsNow, ToolMemo } from './slots/records.js';
import { RouteListing } from './listing/route-listing.js';
import { serverStateDir } from '../store/shared-state.js';
import { slotStoreWriter } from './slots/slot-store.js';
import { Slots } from './slots/slots.js';
import { statusView } from './slots/status-view.js';
import { syncWithStore } from './slots/store-sync.js';
import { createProxiedSurface } from './surface/proxied-surface.js';
import { SurfaceListing } from './surface/routes.js';
import { createSkillSurface } from './surface/skills.js';
import { isDisabled } from './listing/tool-filter.js';
import { auditLog } from '../store/audit/log.js';
import type { ManagerDeps, ServerManager, ServerManagerOptions } from './manager-types.js';
import { createTaskForwarding } from './tasks/forward.js';
import { TaskRoutes } from './tasks/task-routes.js';
import { withHubTaskIds } from './tasks/relay.js';
import { ExtensionTasks } from './tasks/extension-tasks.js';
import { withExtensionTaskInputs } from './tasks/extension-relay.js';
import { runAsTask } from './tasks/run.js';
export type {
  ManagerDeps,
  ServerManager,
  ServerManagerOptions,
  ServerState,
  ServerStatusView,
} from './manager-types.js';

/**
 * The installed servers, proxied: one slot per store record (slots.ts) kept in step with db.json
 * (store-sync.ts), the routes of their tools (route-listing.ts) with list_changed to the client
 * (list-changed.ts), calls forwarded (calls/forwarding.ts), prompts, resources, completions and
 * logging (proxied-surface.ts over surface/routes.ts), autoStart servers started once the
 * client has initialized (auto-start.ts). The client is seen only through deps.client.
 */
export function createServerManager(deps: ManagerDeps, options: ServerManagerOptions = {}): ServerManager {
  const { config, log, store, client } = deps;
  const callTimeoutMs = options.callTimeoutMs ?? config.callTimeoutMs;
  const memo = new ToolMemo(config.paths);
  const announce = listChangedAnnouncer(client, log);
  // Tasks (MCP 2025-11-25): hub's task ids, the client's task-augmented calls, and tasks run for clients without them.
  const taskRoutes = new TaskRoutes();
  // The Tasks extension (2026-07-28) over the same routes, for clients that declared it (docs/tasks.md).
  const extensionTasks = new ExtensionTasks({
    routes: taskRoutes,
    timeoutMs: callTimeoutMs,
    maxWaitMs: config.tasks.maxWaitMs,
  });
  const { surfaceListed, ...writer } = slotStoreWriter({
    paths: config.paths,
    store,
    log,
    memo,
    integrity: config.integrity,
    toolsChanged: () => listing.rebuild(),
  });
  const slots = new Slots({
    log,
    policy: { ...DEFAULT_BACKOFF, stableMs: config.proxy.stableMs, ...options.backoff },
    startTimeoutMs: options.startTimeoutMs ?? callTimeoutMs,
    idleStopMs: options.idleStopMs ?? config.idleStopMs,
    child: {
      client: withExtensionTaskInputs(withHubTaskIds(client, taskRoutes), taskRoutes, extensionTasks),
      surfaceEvents: {
        resourceUpdated: (server, uri) => hooks.events.resourceUpdated(server, uri),
        message: (server, params) => hooks.events.message(server, params),
        taskStatus: (server, task) => taskRoutes.fromChild(server, task),
      },
      allowUnsolicitedRequests: options.allowUnsolicitedRequests ?? config.proxy.allowUnsolicitedRequests,
      authFile: name => config.paths.authFile(name),
      sandbox: { paths: config.paths, enabled: () => config.sandbox.enabled },
      ...(options.graceMs !== undefined && { graceMs: options.graceMs }),
      ...(options.notMcpGraceMs !== undefined && { notMcpGraceMs: options.notMcpGraceMs }),
    },
    random: options.random ?? Math.random,
    logFile: name => config.paths.serverLog(name),
    stateDir: name => serverStateDir(config.paths, name),
    audit: auditLog(config.paths),
    ...writer,
    // The surface is built after the slots it serves; children call it only once started.
    surfaceSeen: (slot, conn, reason) => hooks.surfaceSeen(slot, conn, reason),
  });
  const sync = syncWithStore({
    paths: config.paths,
    store,
    log,
    memo,
    slots,
    applied: () => {
      listing.rebuild();
      surfaceListing.rebuild();
    },
  });
  // Nothing to stop in an empty set: the first records are taken synchronously.
  void slots.reconcile(readRecordsNow(config.paths, store));
  const listing = new RouteListing(
    () => slots.records(),
    () => announce('tools'),
    // Read at each rebuild: an edit of config.json applies (the hub core reloads on it).
    () => config.integrity,
  );
  // A disabled server lists no prompts or resources (its tools are refused in the routes).
  const surfaceListing = new SurfaceListing(() => slots.records().filter(record => !isDisabled(record)), announce);
  const hooks = createProxiedSurface({
    slots,
    listing: surfaceListing,
    client,
    log,
    timeoutMs: callTimeoutMs,
    surfaceListed,
    refresh: sync.refresh,
  });
  const taskSettings = { routes: taskRoutes, timeoutMs: callTimeoutMs, maxWaitMs: config.tasks.maxWaitMs };
  const tasks = createTaskForwarding({ ...taskSettings, slots, table: () => listing.table, refresh: sync.refresh });
  const forwarding = new CallForwarding(
    slots,
    () => listing.table,
    callTimeoutMs,
    sync.refresh,
    (slot, route, args, caller) => runAsTask(slot, route.tool, route.dotted, args, caller, taskSettings),
    extensionTasks,
  );
  autoStartOnInitialize(client, slots, log);
  relayRootsChanged(client, slots);

  return {
    surface: hooks.surface,
    skills: createSkillSurface({
      slots,
      records: () => slots.records().filter(r => !isDisabled(r)),
      timeoutMs: callTimeoutMs,
    }),
    tasks,
    extensionTasks,
    list: mode => listing.table.lists[mode],
    routes: () => listing.table,
    refresh: sync.refresh,
    find: name => forwarding.find(name),
    async start(name, options): Promise<CachedTool[]> {
      if (slots.closed) throw new HubError('CHILD_UNAVAILABLE', 'hub is shutting down; no server can be started now.');
      await sync.reload();
      const slot = slots.require(name);
      // A start already under way (an install's first start, another caller's) is joined, not
      // stopped: stopping it would fail the other caller with "stopped while it was starting".
      if (slot.state !== 'starting') {
        await slot.stop();
        slot.reset();
        // An install's first start: a package that is not an MCP server fails fast (registry/first-start.ts).
        slot.nextStartMs = options?.timeoutMs;
      }
      await slot.connection();
      return slot.record.tools;
    },
    async stop(name) {
      await slots.require(name).stop();
    },
    reload: sync.reload,
    async status(name) {
      await sync.refresh();
      const chosen = name === undefined ? slots.values() : slots.has(name) ? [slots.require(name)] : [];
      return slots.sorted(chosen).map(slot => statusView(slot, listing.table, config.paths.serverLog(slot.name)));
    },
    call: (server, tool, args, extra) => forwarding.call(server, tool, args, extra),
    fast: name => forwarding.fast(name),
    closeSession: session => slots.closeSession(session),
    async close() {
      sync.close();
      taskRoutes.close();
      await slots.close();
    },
  };
}
