// What the dashboard shows at a glance, built by the same code as the tools and the store check.
import { statSync } from 'node:fs';
import type { HubConfig } from '../core/config/config.js';
import type { ProcessManager } from '../process/manager.js';
import type { ServerManager } from '../proxy/manager-types.js';
import { readSharedStates } from '../store/shared-state.js';
import { quarantinedFiles, storeHealth } from '../store/health.js';
import { lockWaits, type LockWaits } from '../store/lock/stats.js';
import { storeLockFile, type Store } from '../store/store.js';
import { processListResult, type ListProcessesResult } from '../tools/process-list.js';
import { serverListResult } from '../tools/server-list.js';
import type { ServerSummary } from '../registry/installed/servers.js';
import { sandboxView } from '../registry/installed/sandbox-settings.js';

// What the dashboard shows at a glance, built by the same code as list_processes and
// registry.list (tools/process-list.ts, tools/server-list.ts) and the store's health check
// (store/health.ts): there is no second implementation of status here.

/** A client session attached to the hub serving the dashboard (given by the shared hub). */
export interface SessionInfo {
  readonly id: string;
  readonly client?: string | undefined;
  readonly transport?: string | undefined;
  readonly startedAt?: string | undefined;
  readonly cwd?: string | undefined;
}

export interface StateDeps {
  readonly config: HubConfig;
  readonly store: Store;
  readonly processes: ProcessManager;
  readonly servers: ServerManager;
  readonly sessions?: (() => readonly SessionInfo[]) | undefined;
}

export interface StoreView {
  readonly path: string;
  readonly home: string;
  readonly sizeBytes: number | null;
  readonly modifiedAt: string | null;
  readonly quarantined: string[];
  readonly warning: string | null;
  /** The store lock as this hub process met it (waits for other hubs, stale locks broken). */
  readonly lock: LockWaits & { readonly file: string };
}

export interface DashboardState {
  readonly processes: ListProcessesResult['processes'];
  /** unsandboxed: a stdio child that runs without its sandbox (a person's setting), flagged in the list. */
  readonly servers: (ServerSummary & { p50Ms: number | null; unsandboxed?: true })[];
  readonly serversNext: string;
  readonly store: StoreView;
  /** Hub processes that publish server state (HUB_HOME/state): every hub running a child. */
  readonly hubs: number[];
  readonly sessions: readonly SessionInfo[] | null;
}

function storeView(config: HubConfig): StoreView {
  const info = statSync(config.paths.db, { throwIfNoEntry: false });
  return {
    path: config.paths.db,
    home: config.paths.home,
    sizeBytes: info ? info.size : null,
    modifiedAt: info ? info.mtime.toISOString() : null,
    quarantined: quarantinedFiles(config.paths),
    warning: storeHealth(config.paths).warning ?? null,
    lock: { file: storeLockFile(config.paths.db), ...lockWaits(storeLockFile(config.paths.db)) },
  };
}

export async function dashboardState(deps: StateDeps): Promise<DashboardState> {
  const [processes, servers] = await Promise.all([
    processListResult(deps.processes),
    serverListResult({ config: deps.config, store: deps.store, manager: deps.servers, spell: dotted => dotted }),
  ]);
  // The hubs running each server publish their metrics (HUB_HOME/state): registry.list sums
  // them; the median is read from the same files (the worst of the hubs', as p95 is).
  const hubs = new Set<number>();
  const records = (await deps.store.read()).servers;
  const withMedian = servers.structured.servers.map(server => {
    const medians: number[] = [];
    for (const state of readSharedStates(deps.config.paths, server.name)) {
      hubs.add(state.pid);
      if (typeof state.p50Ms === 'number') medians.push(state.p50Ms);
    }
    const record = records[server.name];
    const off = record !== undefined && String(sandboxView(record, deps.config).mode).startsWith('off');
    return {
      ...server,
      p50Ms: medians.length === 0 ? null : Math.max(...medians),
      ...(off && { unsandboxed: true as const }),
    };
  });
  return {
    processes: processes.structured.processes,
    servers: withMedian,
    serversNext: servers.structured.next,
    store: storeView(deps.config),
    hubs: [...hubs].sort((a, b) => a - b),
    sessions: deps.sessions ? deps.sessions() : null,
  };
}
