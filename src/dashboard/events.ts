// The dashboard's server-sent events: state when it changes, and a log event when a log grows.
import type { ServerResponse } from 'node:http';
import type { HubConfig } from '../core/config/config.js';
import type { Logger } from '../core/logger.js';
import { createLogWatch } from '../process/log-watch.js';
import type { ProcessManager } from '../process/manager.js';
import { watchDb } from '../store/db-watch.js';
import type { DashboardState } from './state.js';

// Live updates over server-sent events: the state when it changes (db.json replaced by any hub,
// or a change only a fresh look shows: a process exiting, a server's call counts), and a "log"
// event when a process's log grows, so the page reads the new lines with its cursor.

// Call counts and child states live outside db.json (HUB_HOME/state): looked at this often.
const REFRESH_MS = 1_000;
const HEARTBEAT_MS = 15_000;

export interface EventHub {
  attach(response: ServerResponse): void;
  send(event: string, data: unknown): void;
  /** Pages connected now (a shared hub does not exit idle while one is open). */
  viewers(): number;
  close(): void;
}

export function createEventHub(deps: {
  readonly config: HubConfig;
  readonly log: Logger;
  readonly processes: ProcessManager;
  readonly state: () => Promise<DashboardState>;
  /** Every body leaves through here (secrets.ts). */
  readonly scrub: (text: string) => Promise<string>;
}): EventHub {
  const clients = new Set<ServerResponse>();
  let last = '';
  let busy = false;
  let again = false;

  const write = (response: ServerResponse, event: string, text: string) =>
    response.write(`event: ${event}\ndata: ${text.replace(/\n/g, '\ndata: ')}\n\n`);
  const send = (event: string, data: unknown): void => {
    if (clients.size === 0) return;
    void deps.scrub(JSON.stringify(data)).then(text => {
      for (const client of clients) write(client, event, text);
    });
  };

  const logs = createLogWatch({ paths: deps.config.paths, onUpdate: (id, ended) => send('log', { id, ended }) });

  const refresh = async (): Promise<void> => {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      const state = await deps.state();
      for (const record of await deps.processes.list({ status: 'running' })) logs.add(record);
      const text = await deps.scrub(JSON.stringify(state));
      if (text !== last) {
        last = text;
        for (const client of clients) write(client, 'state', text);
      }
    } catch (error) {
      deps.log.warn({ err: error }, 'dashboard: state refresh failed');
    } finally {
      busy = false;
      if (again) {
        again = false;
        void refresh();
      }
    }
  };

  const db = watchDb(deps.config.paths.db, () => void refresh(), 50);
  const ticker = setInterval(() => {
    if (clients.size > 0) void refresh();
  }, REFRESH_MS);
  const heartbeat = setInterval(() => {
    for (const client of clients) client.write(': keep-alive\n\n');
  }, HEARTBEAT_MS);
  ticker.unref();
  heartbeat.unref();

  return {
    attach(response) {
      response.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      response.write('retry: 1000\n\n');
      clients.add(response);
      response.on('close', () => clients.delete(response));
      // A new page gets the whole state at once.
      last = '';
      void refresh();
    },
    send,
    viewers: () => clients.size,
    close() {
      clearInterval(ticker);
      clearInterval(heartbeat);
      db.close();
      logs.close();
      for (const client of clients) client.end();
      clients.clear();
    },
  };
}
