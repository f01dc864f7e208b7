// A 2026-07-28 session's subscriptions/listen streams, each sent only what it asked for.
import { META_SUBSCRIPTION } from './era.js';
import { InputRounds } from './input-rounds.js';

type Json = Record<string, unknown>;
type Id = string | number;

/** The lists a listen can follow (the same three a 2025 client is told about). */
export type ListenedList = 'tools' | 'prompts' | 'resources';

/** What a subscriptions/listen stream asks for (the spec's SubscriptionFilter). */
export interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/** Where resource subscriptions are taken out (hub's resource sources: a child, or hub's own). */
export interface ListenHost {
  /** True when some source owns uri and now sends its updates. */
  subscribe(uri: string): Promise<boolean>;
  unsubscribe(uri: string): Promise<void>;
}

const FLAG: Record<ListenedList, 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged'> = {
  tools: 'toolsListChanged',
  prompts: 'promptsListChanged',
  resources: 'resourcesListChanged',
};
// Bounded: a client that opens listens without closing them cannot grow this without end.
const MAX_LISTENS = 64;
const MAX_URIS = 256;

/** The filter of a listen request, or undefined when it is not one. */
export function listenFilter(params: unknown): ListenFilter | undefined {
  const notifications = (params as { notifications?: unknown } | undefined)?.notifications;
  if (notifications === null || typeof notifications !== 'object' || Array.isArray(notifications)) return undefined;
  const given = notifications as Json;
  const filter: ListenFilter = {};
  for (const flag of Object.values(FLAG)) {
    if (given[flag] === undefined) continue;
    if (typeof given[flag] !== 'boolean') return undefined;
    filter[flag] = given[flag];
  }
  const uris = given.resourceSubscriptions;
  if (uris !== undefined) {
    if (!Array.isArray(uris) || uris.length > MAX_URIS || !uris.every(uri => typeof uri === 'string')) return undefined;
    filter.resourceSubscriptions = uris as string[];
  }
  return filter;
}

/**
 * The open subscriptions/listen streams of one client session (2026-07-28): each gets only the
 * notifications it asked for, stamped with its subscription id (the listen request's id). The
 * proxy reaches them through a ClientSide (proxy/sessions/modern-client-side.ts); the session's modern lane
 * opens and cancels them.
 */
export class ModernListeners {
  #streams = new Map<Id, ListenFilter>();
  #uses = new Map<string, number>();
  #send: ((message: Json) => Promise<void>) | undefined;
  // The logLevel of each modern request in flight: the era has no logging/setLevel, so a log
  // message goes out only while a request that asked for that level is open (its stream).
  #logLevels = new Map<Id, string>();
  /** A 2025 child's questions put to this client as input_required (input-rounds.ts). */
  readonly rounds = new InputRounds();

  constructor(private readonly host: ListenHost) {}

  /** The session's writer (known once the transport exists). */
  attach(send: (message: Json) => Promise<void>): void {
    this.#send = send;
    this.rounds.attach(send);
  }

  get active(): boolean {
    return this.#streams.size > 0;
  }

  /** A modern request with a logLevel started (until requestEnded: answered or cancelled). */
  requestStarted(id: Id, logLevel: string): void {
    // Bounded as the listens are: requests answered never stay, cancelled ones are ended too.
    if (this.#logLevels.size < MAX_LISTENS * 16) this.#logLevels.set(id, logLevel);
  }

  requestEnded(id: Id): void {
    this.#logLevels.delete(id);
  }

  /** The log levels asked for by the modern requests in flight. */
  get logLevels(): Iterable<string> {
    return this.#logLevels.values();
  }

  /** A log message to the modern client (modern-client-side.ts decides whether it is wanted). */
  log(params: Json): void {
    this.#send?.({ jsonrpc: '2.0', method: 'notifications/message', params }).catch(() => undefined);
  }

  /** Opens a stream; answers with the acknowledgement of what it honours. */
  async open(id: Id, filter: ListenFilter): Promise<Json> {
    if (this.#streams.size >= MAX_LISTENS)
      return { error: { code: -32603, message: `At most ${MAX_LISTENS} subscriptions/listen streams may be open.` } };
    const honoured: ListenFilter = {};
    for (const flag of Object.values(FLAG)) if (filter[flag] === true) honoured[flag] = true;
    if (filter.resourceSubscriptions) {
      const taken: string[] = [];
      for (const uri of new Set(filter.resourceSubscriptions)) if (await this.#take(uri)) taken.push(uri);
      honoured.resourceSubscriptions = taken;
    }
    this.#streams.set(id, honoured);
    return { method: 'notifications/subscriptions/acknowledged', params: { notifications: honoured } };
  }

  /** notifications/cancelled for a listen: true when id was one. */
  cancel(id: Id): boolean {
    const stream = this.#streams.get(id);
    if (!stream) return false;
    this.#streams.delete(id);
    for (const uri of stream.resourceSubscriptions ?? []) this.#release(uri);
    return true;
  }

  listChanged(list: ListenedList): void {
    for (const [id, filter] of this.#streams)
      if (filter[FLAG[list]] === true) this.#notify(id, `notifications/${list}/list_changed`, {});
  }

  resourceUpdated(uri: string): void {
    for (const [id, filter] of this.#streams)
      if (filter.resourceSubscriptions?.includes(uri)) this.#notify(id, 'notifications/resources/updated', { uri });
  }

  /** Ends every stream gracefully (the listen request's result), as a server shutting down does. */
  closeAll(): void {
    for (const id of [...this.#streams.keys()]) {
      this.cancel(id);
      this.#send?.({ jsonrpc: '2.0', id, result: { resultType: 'complete', _meta: { [META_SUBSCRIPTION]: id } } });
    }
  }

  #notify(id: Id, method: string, params: Json): void {
    this.#send?.({ jsonrpc: '2.0', method, params: { ...params, _meta: { [META_SUBSCRIPTION]: id } } }).catch(
      () => undefined,
    );
  }

  async #take(uri: string): Promise<boolean> {
    const uses = this.#uses.get(uri) ?? 0;
    if (uses === 0 && !(await this.host.subscribe(uri).catch(() => false))) return false;
    this.#uses.set(uri, uses + 1);
    return true;
  }

  #release(uri: string): void {
    const uses = (this.#uses.get(uri) ?? 1) - 1;
    if (uses > 0) return void this.#uses.set(uri, uses);
    this.#uses.delete(uri);
    this.host.unsubscribe(uri).catch(() => undefined);
  }
}
