// A session's ClientSide with its 2026-07-28 listens, and requests that named a logLevel.
import type {
  ClientCapabilities,
  CreateMessageResult,
  ElicitResult,
  ListRootsResult,
  LoggingLevel,
} from '@modelcontextprotocol/sdk/types.js';
import { InputRoundError } from '../../wire/input-rounds.js';
import type { ModernListeners } from '../../wire/modern-listen.js';
import { RpcError } from '../../wire/rpc-error.js';
import type { ClientSide, RelayOptions } from './client-side.js';
import { levelAtLeast } from './log-relay.js';

// The round's refusal as the JSON-RPC error the child gets back.
async function asked(
  listeners: ModernListeners,
  method: string,
  params: unknown,
  options: RelayOptions,
): Promise<unknown> {
  try {
    return await listeners.rounds.ask({ method, params }, options);
  } catch (error) {
    if (error instanceof InputRoundError)
      throw new RpcError(error.code, `hub could not put the question to the client: ${error.message}`);
    throw error;
  }
}

/**
 * A session's ClientSide with its 2026-07-28 listens added: list changes and resource updates go
 * to the 2025 client (once it initialized, as before) and to every subscriptions/listen stream
 * that asked for them; log messages to the requests in flight that asked for them (logLevel). A session with a listen open counts as one that wants announcements.
 */
export function withModernListeners(base: ClientSide, listeners: ModernListeners): ClientSide {
  return {
    ...base,
    initialized: () => base.initialized() || listeners.active,
    async sendListChanged(kind) {
      listeners.listChanged(kind);
      if (base.initialized()) await base.sendListChanged(kind);
    },
    async sendResourceUpdated(uri) {
      listeners.resourceUpdated(uri);
      if (base.initialized()) await base.sendResourceUpdated(uri);
    },
    // A modern client takes no requests from servers: what a 2025 child asks during its call goes
    // to it as input_required on that call, and its retry carries the answer (wire/input-rounds.ts).
    capabilities: () => base.capabilities() ?? (listeners.rounds.capabilities() as ClientCapabilities | undefined),
    createMessage: (params, options) =>
      base.initialized()
        ? base.createMessage(params, options)
        : (asked(listeners, 'sampling/createMessage', params, options) as Promise<CreateMessageResult>),
    elicitInput: (params, options) =>
      base.initialized()
        ? base.elicitInput(params, options)
        : (asked(listeners, 'elicitation/create', params, options) as Promise<ElicitResult>),
    listRoots: (params, options) =>
      base.initialized()
        ? base.listRoots(params, options)
        : (asked(listeners, 'roots/list', params ?? {}, options) as Promise<ListRootsResult>),
    // A modern client has no logging/setLevel: a message reaches it only while one of its requests
    // that named a logLevel (at or below the message's) is in flight, never unasked.
    async sendLog(params) {
      if (base.initialized()) return base.sendLog(params);
      for (const level of listeners.logLevels)
        if (levelAtLeast(params.level, level as LoggingLevel)) return listeners.log(params);
    },
  };
}
