// The ClientSide of an SDK Server: initialized, capabilities, roots, relayed requests.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { RootsListChangedNotificationSchema, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { ClientSide, ListKind } from './client-side.js';
import { levelAtLeast } from './log-relay.js';

/**
 * The client side of an SDK Server (the stdio hub's; a Streamable HTTP session has a Server of
 * its own too). It takes over server.oninitialized and the roots/list_changed handler, keeping
 * an oninitialized set before it.
 */
export function sdkClientSide(server: Server): ClientSide {
  let initialized = false;
  const waiting: (() => void)[] = [];
  const rootsListeners: (() => void)[] = [];
  let level: LoggingLevel | undefined;
  const previous = server.oninitialized;
  const ready = () => {
    initialized = true;
    previous?.();
    for (const run of waiting.splice(0)) run();
  };
  server.oninitialized = () => {
    if (server.getClientCapabilities() !== undefined) return ready();
    // initialize and notifications/initialized read in one chunk (a replayed hand-off, a socket):
    // the SDK runs a notification's handler two microtasks before a request's, so the client's
    // capabilities are set only after this. Whoever waits for initialized relies on them.
    setImmediate(ready);
  };
  const listChanged: Record<ListKind, () => Promise<void>> = {
    tools: () => server.sendToolListChanged(),
    prompts: () => server.sendPromptListChanged(),
    resources: () => server.sendResourceListChanged(),
  };
  return {
    initialized: () => initialized,
    whenInitialized(run) {
      if (initialized) run();
      else waiting.push(run);
    },
    capabilities: () => server.getClientCapabilities(),
    sendListChanged: kind => listChanged[kind](),
    sendResourceUpdated: uri => server.sendResourceUpdated({ uri }),
    // Not sendLoggingMessage: hub's own setLevel handler (surface/handlers.ts) keeps this client's
    // level here, since one child's messages go to many clients, each at the level it set.
    sendLog: params =>
      level !== undefined && !levelAtLeast(params.level, level)
        ? Promise.resolve()
        : server.notification({ method: 'notifications/message', params }),
    setLogLevel: next => void (level = next),
    logLevel: () => level,
    createMessage: (params, options) => server.createMessage(params, options),
    elicitInput: (params, options) => server.elicitInput(params, options),
    listRoots: (params, options) => server.listRoots(params, options),
    onRootsListChanged(listener) {
      rootsListeners.push(listener);
      if (rootsListeners.length > 1) return;
      server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
        for (const notify of rootsListeners) notify();
      });
    },
  };
}
