// Both protocol eras on one session: server/discover and the 2026-07-28 per-request envelope.
import {
  META_CAPABILITIES,
  META_LOG_LEVEL,
  META_SUBSCRIPTION,
  claimOf,
  discoverResult,
  missingEnvelope,
  modernResult,
  type DiscoverInfo,
  type RpcErrorBody,
} from './era.js';
import { INPUT_METHODS } from './input-rounds.js';
import { listenFilter, type ModernListeners } from './modern-listen.js';
import { extensionTaskRequest, type ExtensionTaskMethods } from './tasks-lane.js';

type Json = Record<string, unknown>;
type Id = string | number;

/** What a session transport asks of the era lane (stdio-transport.ts holds one). */
export interface EraHooks {
  /** Sees each incoming message first; true when it answered it. */
  intercept(message: Json): boolean;
  /** A response on its way out: a modern request's result gets the modern fields; undefined: not sent now. */
  outgoing(message: Json): Json | undefined;
  /** True while a modern request awaits its answer (only then are fast-path lines looked at). */
  pending(): boolean;
}

export interface ModernLaneOptions {
  /** What server/discover says (read when asked: the installed servers' instructions change). */
  discover(): DiscoverInfo;
  readonly serverInfo: Json;
  readonly listeners: ModernListeners;
  /** The Tasks extension's methods (tasks-lane.ts); without it they go on to the SDK Server. */
  readonly tasks?: ExtensionTaskMethods | undefined;
}

const isId = (id: unknown): id is Id => typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));

/**
 * Both protocol eras on one session. `server/discover` is answered here (it does not pin the
 * session: a client may still initialize). A request whose _meta claims 2026-07-28 is served in
 * that era with no initialize: the SDK Server (or the fast path) answers it as any request, and
 * its result leaves with `resultType`, the cache fields and hub's serverInfo (outgoing). A claim of
 * a revision hub does not speak is -32022, a broken envelope -32602. `subscriptions/listen` is
 * held here (modern-listen.ts). A 2025 request (no claim) passes untouched.
 */
export function createModernLane(options: ModernLaneOptions, send: (message: Json) => Promise<void>): EraHooks {
  const { listeners, serverInfo } = options;
  // Modern requests in flight, by id, with their method (the cache fields depend on it).
  const modern = new Map<Id, string>();
  listeners.attach(send);

  const reply = (id: Id, body: { result: Json } | { error: RpcErrorBody }) => {
    send({ jsonrpc: '2.0', id, ...body }).catch(() => undefined);
    return true;
  };

  // A task method's answer, with the fields every modern result carries.
  const taskAnswer = (id: Id, body: { result: Json } | { error: RpcErrorBody }) =>
    reply(id, 'result' in body ? { result: modernResult(undefined, body.result, serverInfo) } : body);

  const listen = (id: Id, params: unknown): boolean => {
    const filter = listenFilter(params);
    if (!filter)
      return reply(id, {
        error: {
          code: -32602,
          message:
            'Invalid params: subscriptions/listen needs params.notifications, a SubscriptionFilter ({"toolsListChanged": true, "resourceSubscriptions": ["<uri>"], …}).',
        },
      });
    void listeners.open(id, filter).then(answer => {
      if ('error' in answer) reply(id, { error: answer.error as RpcErrorBody });
      else send({ jsonrpc: '2.0', ...answer, params: stamped(answer.params as Json, id) }).catch(() => undefined);
    });
    return true;
  };

  return {
    intercept(message) {
      const { id, method, params } = message;
      if (typeof method !== 'string') return false;
      if (id === undefined) {
        if (method !== 'notifications/cancelled') return false;
        const requestId = (params as { requestId?: unknown } | undefined)?.requestId;
        if (!isId(requestId)) return false;
        listeners.requestEnded(requestId);
        // A retry's cancel: the fast path knows the call by its first id.
        const first = listeners.rounds.cancelled(requestId);
        if (first !== undefined) (params as Json).requestId = first;
        return listeners.cancel(requestId);
      }
      if (!isId(id)) return false;
      const claim = claimOf(params);
      if (claim.era === 'refused') return reply(id, { error: claim.error });
      if (method === 'server/discover') return reply(id, { result: discoverResult(options.discover()) });
      if (claim.era === 'legacy')
        return method === 'subscriptions/listen' ? reply(id, { error: missingEnvelope(method) }) : false;
      if (method === 'subscriptions/listen') return listen(id, params);
      if (options.tasks && extensionTaskRequest(id, method, params, claim.meta, options.tasks, taskAnswer)) return true;
      // A call may be the retry of one a 2025 child asked a question in (input-rounds.ts).
      let retried: ReturnType<typeof listeners.rounds.retry>;
      if (INPUT_METHODS.has(method)) {
        const capabilities = claim.meta[META_CAPABILITIES] as Json;
        retried = listeners.rounds.retry(id, method, params as Json, capabilities);
        if (retried === 'unknown')
          return reply(id, {
            error: {
              code: -32602,
              message: `Invalid params: this requestState is not one hub knows for ${method} (hub restarted, or the request ended or timed out); send the request again without requestState and inputResponses.`,
            },
          });
        if (retried === undefined) listeners.rounds.callStarted(id, method, capabilities);
      }
      modern.set(id, method);
      const level = claim.meta[META_LOG_LEVEL];
      if (typeof level === 'string') listeners.requestStarted(id, level);
      return retried === 'taken';
    },
    outgoing(message) {
      if ('method' in message || !isId(message.id)) return message;
      if (modern.size === 0 && !listeners.rounds.active) return message;
      const roundMethod = listeners.rounds.methodOf(message.id);
      const routed = listeners.rounds.outgoing(message);
      if (routed === undefined) return undefined;
      const id = routed.id as Id;
      // Rewritten to a retry's id: the answer to the request the rounds began with.
      const method = modern.get(id) ?? (id !== message.id ? roundMethod : undefined);
      if (method === undefined) return routed;
      modern.delete(id);
      listeners.requestEnded(id);
      const result = routed.result;
      if (result === null || typeof result !== 'object') return routed;
      return { ...routed, result: modernResult(method, result as Json, serverInfo) };
    },
    pending: () => modern.size > 0 || listeners.rounds.active,
  };
}

const stamped = (params: Json, id: Id): Json => ({
  ...params,
  _meta: { [META_SUBSCRIPTION]: id },
});
