import { existsSync, readFileSync } from 'node:fs';
import { RootsListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { HubError, errorMessage } from '../core/errors.js';
import { decodeStore } from '../store/recover.js';
import type { HubPaths } from '../core/paths.js';
import type { CachedTool, ServerRecord, ServerWithTools } from '../store/schema.js';
import { allWithTools, withTools, writeToolCache } from '../store/tool-cache.js';
import type { ToolDeps } from '../tools/define.js';
import { DEFAULT_BACKOFF } from './backoff.js';
import { watchDb } from './db-watch.js';
import { createFastPath, type FastForwarder } from '../wire/fast-path.js';
import { forwardCall, sdkCaller } from './forward.js';
import { buildRoutes, type Route, type RouteTable } from './routes.js';
import { issuesOf, sameTools } from './tool-intake.js';
import { serverStateDir } from './shared-state.js';
import { ServerSlot, type SlotContext } from './server-slot.js';
import { statusView, unavailable } from './status-view.js';
import { capInstructions } from './instructions-section.js';
import type { ServerExtra } from './types.js';
import type { ServerManager, ServerManagerOptions } from './manager-types.js';
export type { ServerManager, ServerManagerOptions, ServerState, ServerStatusView } from './manager-types.js';

// What decides how a child is launched: when any of it changes, the running child is stale.
const launchKey = (record: ServerRecord): string =>
  JSON.stringify([
    record.command,
    record.args,
    record.env,
    record.cwd ?? null,
    record.package ?? null,
    record.version ?? null,
    record.installedAt,
  ]);

// The first list is served from db.json and tools/*.json synchronously, so tools are listed
// before any await.
function readRecordsNow(paths: HubPaths): ServerWithTools[] {
  let text: string | null = null;
  try {
    text = readFileSync(paths.db, 'utf8');
  } catch {
    return [];
  }
  const decoded = decodeStore(text);
  return decoded.kind === 'newer' ? [] : allWithTools(paths, Object.values(decoded.data.servers));
}

export function createServerManager(deps: ToolDeps, options: ServerManagerOptions = {}): ServerManager {
  const { config, log, store, server } = deps;
  const callTimeoutMs = options.callTimeoutMs ?? config.callTimeoutMs;
  const slots = new Map<string, ServerSlot>();
  let table: RouteTable = buildRoutes([]);
  let closed = false;
  // Tools read from tools/<name>.json, by toolsUpdatedAt: a db.json change re-reads only the
  // cache files whose stamp moved.
  const toolMemo = new Map<string, { stamp: string; tools: CachedTool[] }>();
  const attach = (record: ServerRecord): ServerWithTools => {
    const memo = toolMemo.get(record.name);
    if (memo && record.tools === undefined && memo.stamp === record.toolsUpdatedAt)
      return { ...record, tools: memo.tools };
    const full = withTools(config.paths, record);
    if (record.toolsUpdatedAt === undefined) toolMemo.delete(record.name);
    else toolMemo.set(record.name, { stamp: record.toolsUpdatedAt, tools: full.tools });
    return full;
  };

  const notifyListChanged = () => {
    if (!deps.isInitialized()) return;
    server
      .sendToolListChanged()
      .catch(error => log.debug({ err: errorMessage(error) }, 'could not send tools/list_changed'));
  };

  const rebuild = () => {
    const before = table.signature;
    table = buildRoutes([...slots.values()].map(slot => slot.record));
    if (table.signature !== before) notifyListChanged();
  };

  const ctx: SlotContext = {
    hub: server,
    log,
    policy: { ...DEFAULT_BACKOFF, stableMs: config.proxy.stableMs, ...options.backoff },
    startTimeoutMs: options.startTimeoutMs ?? callTimeoutMs,
    idleStopMs: options.idleStopMs ?? config.idleStopMs,
    graceMs: options.graceMs,
    notMcpGraceMs: options.notMcpGraceMs,
    allowUnsolicitedRequests: options.allowUnsolicitedRequests ?? config.proxy.allowUnsolicitedRequests,
    random: options.random ?? Math.random,
    logFile: name => config.paths.serverLog(name),
    stateDir: name => serverStateDir(config.paths, name),
    async toolsListed(slot, tools) {
      // Unchanged and already in its own file: nothing to write (an inline list is moved out).
      const same = sameTools(tools, slot.record.tools);
      if (same && existsSync(config.paths.toolsFile(slot.name))) return;
      const toolsUpdatedAt = new Date().toISOString();
      const key = launchKey(slot.record);
      slot.record = { ...slot.record, tools, toolsUpdatedAt };
      if (!same) rebuild();
      // The cache lets the next hub list these tools without starting the server. Written under
      // the store's lock, only while the record is still this install; db.json gets the stamp.
      await store
        .update(data => {
          const record = data.servers[slot.name];
          if (!record || launchKey(record) !== key) return;
          writeToolCache(config.paths, slot.name, tools, toolsUpdatedAt, issuesOf(tools));
          toolMemo.set(slot.name, { stamp: toolsUpdatedAt, tools });
          record.toolsUpdatedAt = toolsUpdatedAt;
          delete record.tools;
        })
        .catch(error =>
          log.warn({ server: slot.name, err: errorMessage(error) }, 'could not cache the tool list in the store'),
        );
    },
    // Kept in the record so registry.list and hub's own instructions show them with no child running.
    async instructionsSeen(slot, instructions) {
      const kept = capInstructions(instructions);
      const key = launchKey(slot.record);
      const { instructions: _old, ...rest } = slot.record;
      slot.record = kept === undefined ? rest : { ...rest, instructions: kept };
      await store
        .update(data => {
          const record = data.servers[slot.name];
          if (!record || launchKey(record) !== key) return;
          if (kept === undefined) delete record.instructions;
          else record.instructions = kept;
        })
        .catch(error =>
          log.warn({ server: slot.name, err: errorMessage(error) }, 'could not keep the server instructions'),
        );
    },
  };

  const applyRecords = async (records: readonly ServerWithTools[]) => {
    const wanted = new Map(records.map(record => [record.name, record]));
    const stopping: Promise<void>[] = [];
    for (const [name, slot] of slots) {
      const record = wanted.get(name);
      if (!record) {
        slots.delete(name);
        stopping.push(slot.stop());
      } else if (launchKey(record) !== launchKey(slot.record)) {
        // Reinstalled: the old child is stale and its crash history no longer applies.
        stopping.push(slot.stop().then(() => slot.reset()));
        slot.record = record;
      } else {
        slot.record = slot.conn ? { ...record, tools: slot.record.tools } : record;
      }
    }
    for (const record of records) if (!slots.has(record.name)) slots.set(record.name, new ServerSlot(record, ctx));
    rebuild();
    await Promise.all(stopping);
  };

  const dbWatch = watchDb(config.paths.db, () => {
    refresh().catch(error => log.debug({ err: errorMessage(error) }, 'could not re-read servers'));
  });
  for (const record of readRecordsNow(config.paths)) slots.set(record.name, new ServerSlot(record, ctx));
  table = buildRoutes([...slots.values()].map(slot => slot.record));

  const forwarders = new WeakMap<
    Route,
    (args: Record<string, unknown> | undefined, extra: ServerExtra) => Promise<CallToolResult>
  >();
  const forwarderFor = (route: Route) => {
    let forward = forwarders.get(route);
    if (!forward) {
      forward = (args, extra) => {
        const slot = slots.get(route.server);
        if (!slot || closed) return Promise.resolve(unavailable(route.server));
        return forwardCall(slot, route.tool, route.dotted, args, sdkCaller(extra), callTimeoutMs);
      };
      forwarders.set(route, forward);
    }
    return forward;
  };

  const fastForwarders = new WeakMap<Route, FastForwarder>();
  const fastForwarder = (name: string): FastForwarder | undefined => {
    const route = table.byName.get(name);
    if (!route) return undefined;
    let forward = fastForwarders.get(route);
    if (!forward) {
      forward = (args, caller) => {
        const slot = slots.get(route.server);
        if (!slot || closed) return Promise.resolve(unavailable(route.server));
        return forwardCall(slot, route.tool, route.dotted, args, caller, callTimeoutMs);
      };
      fastForwarders.set(route, forward);
    }
    return forward;
  };

  const slotOf = (name: string): ServerSlot => {
    const slot = slots.get(name);
    if (!slot)
      throw new HubError(
        'NOT_FOUND',
        `No installed server is named "${name}"; registry.list shows the installed servers.`,
      );
    return slot;
  };

  const startNow = async (name: string): Promise<CachedTool[]> => {
    if (closed) throw new HubError('CHILD_UNAVAILABLE', 'hub is shutting down; no server can be started now.');
    await reload();
    const slot = slotOf(name);
    await slot.stop();
    slot.reset();
    await slot.connection();
    return slot.record.tools;
  };

  const reload = async () => {
    dbWatch.mark();
    const data = await store.read();
    await applyRecords(Object.values(data.servers).map(attach));
  };

  // Children can only be offered what the client declared, known once it has initialized.
  const startAutoServers = () => {
    for (const slot of slots.values()) {
      if (slot.record.autoStart && slot.state === 'stopped') {
        slot
          .connection()
          .catch(error => log.warn({ server: slot.name, err: errorMessage(error) }, 'autoStart server did not start'));
      }
    }
  };
  if (deps.isInitialized()) startAutoServers();
  else {
    const previous = server.oninitialized;
    server.oninitialized = () => {
      previous?.();
      if (!closed) startAutoServers();
    };
  }
  server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    for (const slot of slots.values()) slot.conn?.notifyRootsChanged();
  });

  // Servers installed or removed by another hub sharing HUB_HOME.
  const refresh = async () => {
    if (!closed && dbWatch.changed()) await reload();
  };

  return {
    list: mode => table.lists[mode],
    refresh,
    find: name => {
      const route = table.byName.get(name);
      return route ? forwarderFor(route) : undefined;
    },
    start: startNow,
    async stop(name) {
      await slotOf(name).stop();
    },
    reload,
    async status(name) {
      await refresh();
      const chosen = name === undefined ? [...slots.values()] : slots.has(name) ? [slotOf(name)] : [];
      return chosen
        .sort((a, b) => a.record.order - b.record.order || a.name.localeCompare(b.name))
        .map(slot => statusView(slot, table, config.paths.serverLog(slot.name)));
    },
    async call(serverName, tool, args, extra) {
      if (closed) return unavailable(serverName);
      if (!slots.has(serverName)) await refresh();
      const slot = slotOf(serverName);
      let route = table.byServer.get(serverName)?.get(tool);
      // Never listed yet (installed elsewhere, cache empty): start it to learn its tools.
      if (!route && slot.state !== 'ready' && slot.record.tools.length === 0) {
        await slot.connection();
        route = table.byServer.get(serverName)?.get(tool);
      }
      if (!route) {
        throw new HubError(
          'NOT_FOUND',
          `Server "${serverName}" has no tool named "${tool}"; registry.list with {"server": "${serverName}"} lists its tools.`,
        );
      }
      return forwarderFor(route)(args, extra);
    },
    fastPath: sendRaw => createFastPath(fastForwarder, sendRaw),
    async close() {
      closed = true;
      dbWatch.close();
      await Promise.allSettled([...slots.values()].map(slot => slot.stop()));
    },
  };
}
