// What a child asks of the person (sampling, elicitation, roots) relayed to the client under the
// child's name, only while one of its calls is in flight, and its list_changed notifications.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../core/logger.js';
import { RpcError } from '../../wire/rpc-error.js';
import type { ToolNeed } from '../listing/tool-needs.js';
import type { ClientSide, RelaySource } from '../sessions/client-side.js';
import { relayLabels } from './relay-labels.js';
import type { ServerLog } from './server-log.js';
import { strayResponses } from './stray-responses.js';
import { watchSurface, type SurfaceEvents } from './surface.js';

// A person answers sampling and elicitation: allow them time; the child cancels when it gives up.
const RELAY_TIMEOUT_MS = 30 * 60_000;

/** What of a connection's options the child's requests and notifications need. */
export interface AskOptions {
  record: { readonly name: string };
  /** Whoever faces hub's client: child requests are relayed to it. */
  client: ClientSide;
  log: Logger;
  /** Relay a child's elicitation and sampling requests even when none of its calls is in progress. */
  allowUnsolicitedRequests?: boolean;
  /** Which sessions have calls in flight to this child (its slot): relayed requests name it. */
  from?: RelaySource;
  /** The child asked the client for sampling or elicitation (its slot learns which tool needs it). */
  onAsks?(need: ToolNeed): void;
  onToolsChanged(): void;
  /** The child's prompts or resources changed (list_changed). */
  onSurfaceChanged(): void;
  /** Where its resource updates and log messages go (the same for every child of a manager). */
  surfaceEvents?: SurfaceEvents;
}

function requireClient(client: ClientSide, capability: 'sampling' | 'elicitation' | 'roots'): void {
  if (client.capabilities()?.[capability]) return;
  throw new RpcError(-32601, `The client connected to hub does not support ${capability}.`);
}

/** The child's requests to the person and its notifications, the same for every kind of child. */
export function wireChild(
  client: Client,
  connection: { readonly inFlight: number },
  options: AskOptions,
  serverLog: ServerLog,
  strays = strayResponses(options.log, options.record.name),
): void {
  const { record, client: upstream, log } = options;
  const from = options.from && { from: options.from };
  // Tied to a call: one of this child's tool calls is in flight (none is during the handshake).
  const relays = relayLabels(record.name, () => {
    if (options.allowUnsolicitedRequests === true || connection.inFlight > 0) return;
    log.warn({ server: record.name }, 'refused a request to the person from a child with no call in progress');
    throw new McpError(
      ErrorCode.InvalidRequest,
      `hub relays requests to the person from server "${record.name}" only while one of its tool calls is in progress ` +
        '(config.json proxy.allowUnsolicitedRequests: true allows them at any time; it applies after `hub-mcp stop`).',
    );
  });
  client.setRequestHandler(CreateMessageRequestSchema, (request, extra) => {
    options.onAsks?.('sampling');
    requireClient(upstream, 'sampling');
    return upstream.createMessage(relays.sampling(request.params), {
      signal: extra.signal,
      timeout: RELAY_TIMEOUT_MS,
      ...from,
    });
  });
  client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
    options.onAsks?.('elicitation');
    requireClient(upstream, 'elicitation');
    return upstream.elicitInput(relays.elicitation(request.params), {
      signal: extra.signal,
      timeout: RELAY_TIMEOUT_MS,
      ...from,
    });
  });
  client.setRequestHandler(ListRootsRequestSchema, (request, extra) => {
    requireClient(upstream, 'roots');
    return upstream.listRoots(request.params, { signal: extra.signal, ...from });
  });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => options.onToolsChanged());
  watchSurface(client, record.name, serverLog, () => options.onSurfaceChanged(), options.surfaceEvents);
  client.onerror = error => {
    if (!strays.protocolError(error)) log.debug({ server: record.name, err: error.message }, 'child protocol error');
  };
}
