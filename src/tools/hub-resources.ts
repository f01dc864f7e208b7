// hub's own resources: the process list, each process's log, and the installed servers.
import type { ReadResourceResult, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { isHubError } from '../core/errors.js';
import type { HubPaths } from '../core/paths.js';
import type { Logger } from '../core/logger.js';
import type { LogWatch } from '../process/log-watch.js';
import type { ProcessManager } from '../process/manager.js';
import { watchDb, type DbWatch } from '../store/db-watch.js';
import type { ReadCall, ResourceSource } from '../proxy/surface/resource-source.js';
import type { Store } from '../store/store.js';
import { newestProcesses as newestFirst } from '../core/process-log-listing.js';
import {
  badUri,
  isHubUri,
  LOG_LINES_MAX,
  LOG_URI_TEMPLATE,
  logResource,
  logUri,
  parseHubUri,
  PROCESSES_URI,
  SERVERS_URI,
} from './hub-uris.js';
import { processListResult } from './process-list.js';
import type { ServerListResult } from './server-list.js';

/** What the log resource's result carries in `_meta`, under this key: how to follow it. */
export const LOG_META_KEY = 'hub/log';

export interface HubResourceDeps {
  readonly store: Store;
  readonly paths: HubPaths;
  readonly log: Logger;
  /** The process tools' manager (one per hub: the same records, caps and reads). */
  readonly processes: () => Promise<ProcessManager>;
  /** What registry.list shows of every installed server. */
  readonly servers: () => Promise<ServerListResult>;
  /** Sends notifications/resources/updated for uri to the client. */
  readonly notifyUpdated: (uri: string) => void;
  /** Sends notifications/resources/list_changed to the client. */
  readonly notifyListChanged: () => void;
}

export interface HubResources extends ResourceSource {
  /** Stops every watch (hub is closing). */
  close(): void;
}

const STATIC: readonly Resource[] = [
  {
    uri: PROCESSES_URI,
    name: 'processes',
    title: 'Processes started by hub',
    description: 'Every process started with start_process and its status, as JSON: what list_processes returns.',
    mimeType: 'application/json',
  },
  {
    uri: SERVERS_URI,
    name: 'servers',
    title: 'Installed MCP servers',
    description:
      'Installed servers with state, tools, calls, errors, latency and restarts, as JSON: what registry.list returns.',
    mimeType: 'application/json',
  },
];

const TEMPLATES: readonly ResourceTemplate[] = [
  {
    uriTemplate: LOG_URI_TEMPLATE,
    name: 'process-log',
    title: 'Log of a process',
    description:
      "The last 100 lines of a process's stdout+stderr (id or name from hub://processes), ANSI stripped and capped. " +
      `Add "?cursor=N" (next_cursor from the result's _meta "${LOG_META_KEY}") for only the output written since, ` +
      `"lines=N" (1–${LOG_LINES_MAX}) for more or fewer lines. Subscribe for updates while it runs.`,
    mimeType: 'text/plain',
  },
];

const json = (uri: string, value: unknown): ReadResourceResult => ({
  contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }],
});

/**
 * hub's own resources (docs/tools.md "hub's own resources"): the process list, each process's log
 * and the installed servers, read from the same code as list_processes, get_process_logs and
 * registry.list. Listing reads only the store; nothing here starts a server or reads a whole log.
 */
export function createHubResources(deps: HubResourceDeps): HubResources {
  // Subscribed URI → the process id it watches (several URIs may name one process).
  const subscriptions = new Map<string, string>();
  let watch: Promise<LogWatch> | undefined;
  let closed = false;
  // The process logs this client was last given, and the store watch that tells when a process
  // started or removed (by this hub or another on the same HUB_HOME) changes that list.
  let listed: string | undefined;
  let storeWatch: DbWatch | undefined;

  const newestProcesses = async () => {
    const { processes } = await deps.store.read();
    return newestFirst(Object.values(processes));
  };
  const signature = (processes: readonly { id: string }[]) => processes.map(process => process.id).join(' ');
  const recheck = async () => {
    if (closed || listed === undefined) return;
    const now = signature(await newestProcesses());
    if (closed || now === listed) return;
    listed = now;
    deps.notifyListChanged();
  };

  const onUpdate = (id: string, ended: boolean): void => {
    for (const [uri, watched] of [...subscriptions]) {
      if (watched !== id) continue;
      // After its end nothing changes: the last update is sent and the subscription dropped.
      if (ended) subscriptions.delete(uri);
      deps.notifyUpdated(uri);
    }
  };
  const logWatch = () =>
    (watch ??= import('../process/log-watch.js').then(module =>
      module.createLogWatch({ paths: deps.paths, onUpdate }),
    ));

  // A process the URI names, or -32602 naming the URI: the same lookup as get_process_logs.
  async function lookup<T>(uri: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isHubError(error) && (error.code === 'NOT_FOUND' || error.code === 'INVALID_INPUT'))
        throw badUri(uri, error.message);
      throw error;
    }
  }

  async function readLog(uri: string, parsed: Extract<ReturnType<typeof parseHubUri>, { kind: 'log' }>) {
    const manager = await deps.processes();
    const { record, slice } = await lookup(uri, () =>
      manager.logs({ reference: parsed.reference, lines: parsed.lines, cursor: parsed.cursor }),
    );
    const following = parsed.cursor !== undefined;
    return {
      contents: [{ uri, mimeType: 'text/plain', text: slice.lines.join('\n') }],
      _meta: {
        [LOG_META_KEY]: {
          id: record.id,
          status: record.status,
          lines: slice.lines.length,
          next_cursor: slice.nextCursor,
          next_uri: logUri(record.id, slice.nextCursor),
          // Older output than the tail exists; with a cursor, newer output than returned.
          truncated: slice.truncated,
          ...(following && { cursor_reset: slice.cursorReset }),
          dropped_bytes: slice.droppedBytes,
        },
      },
    } satisfies ReadResourceResult;
  }

  return {
    async resources() {
      const newest = await newestProcesses();
      listed = signature(newest);
      // Watched only once the client has listed: a client that never lists gets no list_changed.
      if (!closed)
        storeWatch ??= watchDb(deps.paths.db, () => {
          recheck().catch(error => deps.log.debug({ err: error }, 'could not re-read the processes'));
        });
      return [...STATIC, ...newest.map(logResource)];
    },

    templates: () => Promise.resolve(TEMPLATES),

    owns: isHubUri,

    async read(uri: string, call: ReadCall): Promise<ReadResourceResult> {
      const parsed = parseHubUri(uri);
      call.signal.throwIfAborted();
      if (parsed.kind === 'processes') return json(uri, (await processListResult(await deps.processes())).structured);
      if (parsed.kind === 'servers') return json(uri, (await deps.servers()).structured);
      return readLog(uri, parsed);
    },

    async subscribe(uri: string): Promise<void> {
      const parsed = parseHubUri(uri);
      if (parsed.kind !== 'log')
        throw badUri(
          uri,
          `hub sends updates only for process logs (${LOG_URI_TEMPLATE}); read ${uri} again to refresh it.`,
        );
      const manager = await deps.processes();
      const record = await lookup(uri, () => manager.get(parsed.reference));
      // An ended process writes nothing more: there is nothing to watch, and no update will come.
      if (closed || record.status !== 'running') return;
      const active = await logWatch();
      if (closed) return;
      subscriptions.set(uri, record.id);
      active.add(record);
      deps.log.debug({ uri, process: record.id }, 'resource subscribed');
    },

    async unsubscribe(uri: string): Promise<void> {
      parseHubUri(uri);
      const id = subscriptions.get(uri);
      if (id === undefined) return;
      subscriptions.delete(uri);
      if (![...subscriptions.values()].includes(id)) (await logWatch()).remove(id);
    },

    close() {
      closed = true;
      storeWatch?.close();
      subscriptions.clear();
      void watch?.then(active => active.close());
    },
  };
}
