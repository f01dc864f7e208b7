// Which era a child speaks, probed by server/discover, and the transport that speaks it.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ClientCapabilities, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import {
  META_CAPABILITIES,
  META_CLIENT_INFO,
  META_LOG_LEVEL,
  META_SERVER_INFO,
  META_VERSION,
  MODERN_VERSION,
  UNSUPPORTED_VERSION,
  claimedVersion,
} from '../../wire/era.js';
import { declaresTasks, withTasksExtension } from '../../wire/tasks-extension.js';
import type { ChildProcessTransport } from './transport.js';

type Json = Record<string, unknown>;

/** Which revision a child speaks: learnt from `server/discover` before initialize. */
export type ChildEra = 'legacy' | 'modern';

// A child that answers nothing to server/discover (some refuse every request before initialize)
// is taken for a 2025 one after this long; the verdict is remembered, so only its first start waits.
// 5 s, not 1.5: a v2 child still loading on a busy machine (CI) was taken for a 2025 one.
export const PROBE_TIMEOUT_MS = 5_000;
const PROBE_ID = 'hub:discover';
const LISTEN_PREFIX = 'hub:listen-';

// 2025 children, by command line: their next start skips the probe. A modern verdict is not kept:
// each start needs the child's discover answer anyway (its capabilities and instructions).
const legacyChildren = new Set<string>();
const childKey = (command: string, args: readonly string[]) => JSON.stringify([command, ...args]);

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export interface EraOptions {
  readonly command: string;
  readonly args: readonly string[];
  /** What hub offers the child in every request's envelope (the same for every child). */
  readonly capabilities: ClientCapabilities;
  readonly clientInfo: { name: string; version: string };
  readonly probeTimeoutMs?: number;
}

/**
 * The transport hub's SDK Client talks to a child through, in the child's era. At start it asks
 * `server/discover` (a 2025 child answers -32601 at once, and then initializes as before). A child
 * that speaks 2026-07-28 never sees initialize: the Client's handshake is answered here from the
 * discover result, every request gets the _meta envelope, logging/setLevel becomes the envelope's
 * logLevel, resources/subscribe becomes one subscriptions/listen (reopened when the set changes)
 * whose notifications reach the Client as 2025 ones. Everything else passes through unchanged.
 */
export class EraChildTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  sessionId?: string;

  #era: ChildEra = 'legacy';
  #remembered = false;
  #handshook = false;
  #initialize: { id: string | number; params: Json } | undefined;
  #discover: Json | undefined;
  #probe: ((answer: Json | undefined) => void) | undefined;
  #logLevel: string | undefined;
  #subscriptions = new Set<string>();
  #listenId: string | undefined;
  #listens = 0;

  constructor(
    readonly inner: ChildProcessTransport,
    private readonly options: EraOptions,
  ) {
    inner.onmessage = message => this.#incoming(message as unknown as Json);
    inner.onclose = () => {
      this.#probe?.(undefined);
      // It ended before the handshake completed: a remembered 2025 verdict may be why.
      if (!this.#handshook) this.#forgetVerdict();
      this.onclose?.();
    };
    inner.onerror = error => this.onerror?.(error);
  }

  get era(): ChildEra {
    return this.#era;
  }

  async start(): Promise<void> {
    await this.inner.start();
    const key = childKey(this.options.command, this.options.args);
    this.#remembered = legacyChildren.has(key);
    if (this.#remembered) return;
    // No answer at all (it ignores or chokes on unknown methods) counts as 2025 too: not asked again.
    if (!this.#takeDiscover(await this.#discoverNow())) legacyChildren.add(key);
  }

  #takeDiscover(answer: Json | undefined): boolean {
    const versions = isObject(answer?.result) ? answer.result.supportedVersions : undefined;
    if (!Array.isArray(versions) || !versions.includes(MODERN_VERSION)) return false;
    this.#era = 'modern';
    this.#discover = answer!.result as Json;
    return true;
  }

  /**
   * A modern-only child that was slow to start (no discover answer in time, or a verdict kept from
   * an older version) refuses initialize with -32022: it is asked server/discover again, now that
   * it is up, and the Client's handshake is answered from that instead.
   */
  async #initializeRefused(message: Json, params: Json): Promise<void> {
    if (this.#takeDiscover(await this.#discoverNow())) {
      legacyChildren.delete(childKey(this.options.command, this.options.args));
      const result = this.#answerLocally('initialize', params);
      this.onmessage?.({ jsonrpc: '2.0', id: message.id, result } as JSONRPCMessage);
    } else this.onmessage?.(message as unknown as JSONRPCMessage);
  }

  /** A start failed: a remembered 2025 verdict is dropped (the child may have moved to the new era). */
  #forgetVerdict(): void {
    if (this.#remembered) legacyChildren.delete(childKey(this.options.command, this.options.args));
  }

  #discoverNow(): Promise<Json | undefined> {
    return new Promise(resolve => {
      const timer = setTimeout(() => finish(undefined), this.options.probeTimeoutMs ?? PROBE_TIMEOUT_MS);
      const finish = (answer: Json | undefined) => {
        clearTimeout(timer);
        this.#probe = undefined;
        resolve(answer);
      };
      this.#probe = finish;
      const request = { jsonrpc: '2.0', id: PROBE_ID, method: 'server/discover', params: { _meta: this.envelope() } };
      this.inner.sendRaw(`${JSON.stringify(request)}\n`).catch(() => finish(undefined));
    });
  }

  /** The _meta envelope of a request hub makes of a modern child. */
  envelope(capabilities: ClientCapabilities = this.options.capabilities): Json {
    return {
      [META_VERSION]: MODERN_VERSION,
      [META_CAPABILITIES]: capabilities,
      [META_CLIENT_INFO]: this.options.clientInfo,
      ...(this.#logLevel !== undefined && { [META_LOG_LEVEL]: this.#logLevel }),
    };
  }

  /**
   * The _meta of a call hub forwards: a modern client's own envelope passes as it is; a 2025
   * client's call gets hub's envelope naming what that client can answer (hub relays it).
   */
  callMeta(callerMeta: Json | undefined, capabilities: ClientCapabilities | undefined): Json | undefined {
    if (this.#era !== 'modern') return callerMeta;
    // A modern client's envelope passes; without the Tasks extension it gets it added: hub follows
    // a task the child answers with for that client, which cannot take one (child-task-wait.ts).
    if (claimedVersion(callerMeta) !== undefined)
      return declaresTasks(callerMeta)
        ? callerMeta
        : { ...callerMeta, [META_CAPABILITIES]: withTasksExtension((callerMeta![META_CAPABILITIES] ?? {}) as Json) };
    const offered: ClientCapabilities = {
      ...(capabilities?.elicitation && { elicitation: capabilities.elicitation }),
      ...(capabilities?.sampling && { sampling: capabilities.sampling }),
      ...(capabilities?.roots && { roots: {} }),
    };
    // The Tasks extension too: a task the child answers with, hub follows for the caller (child-task-wait.ts).
    return { ...callerMeta, ...this.envelope(withTasksExtension(offered)) };
  }

  #incoming(message: Json): void {
    if (message.id === PROBE_ID && message.method === undefined) return this.#probe?.(message);
    const init = this.#initialize;
    if (init && message.id === init.id && message.method === undefined) {
      this.#initialize = undefined;
      this.#handshook = message.result !== undefined;
      const code = (message.error as { code?: unknown } | undefined)?.code;
      if (code === UNSUPPORTED_VERSION) return void this.#initializeRefused(message, init.params);
    }
    if (this.#era === 'modern') {
      if (message.method === 'notifications/subscriptions/acknowledged') return;
      // The listen's own answer (it ended, or was refused): nothing waits for it.
      if (typeof message.id === 'string' && message.id.startsWith(LISTEN_PREFIX) && message.method === undefined) {
        if (message.id === this.#listenId) this.#listenId = undefined;
        return;
      }
    }
    this.onmessage?.(message as unknown as JSONRPCMessage);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const { id, method, params } = message as Json;
    if (this.#era === 'legacy') {
      if (method === 'initialize' && (typeof id === 'string' || typeof id === 'number'))
        this.#initialize = { id, params: isObject(params) ? params : {} };
      return this.inner.send(message);
    }
    if (typeof method !== 'string') return this.inner.send(message);
    if (id === undefined) {
      // No initialized and no roots/list_changed in the new era; cancellations pass.
      if (method === 'notifications/initialized') return this.#listen();
      if (method !== 'notifications/cancelled') return Promise.resolve();
      return this.inner.send(message);
    }
    const local = this.#answerLocally(method, isObject(params) ? params : {});
    if (local !== undefined) {
      queueMicrotask(() => this.onmessage?.({ jsonrpc: '2.0', id, result: local } as JSONRPCMessage));
      return Promise.resolve();
    }
    const given = isObject(params) ? params : {};
    const meta = isObject(given._meta) ? given._meta : {};
    return this.inner.send({ ...message, params: { ...given, _meta: { ...meta, ...this.envelope() } } } as never);
  }

  // What a modern child has no method for: the handshake, ping, the level, subscriptions.
  #answerLocally(method: string, params: Json): Json | undefined {
    const discover = this.#discover ?? {};
    switch (method) {
      case 'initialize':
        this.#handshook = true;
        return {
          protocolVersion: params.protocolVersion,
          capabilities: discover.capabilities ?? {},
          serverInfo: (isObject(discover._meta) && discover._meta[META_SERVER_INFO]) || {
            name: 'unknown',
            version: '0',
          },
          ...(typeof discover.instructions === 'string' && { instructions: discover.instructions }),
        };
      case 'ping':
        return {};
      case 'logging/setLevel':
        if (typeof params.level === 'string') this.#logLevel = params.level;
        return {};
      case 'resources/subscribe':
      case 'resources/unsubscribe': {
        const uri = params.uri;
        if (typeof uri !== 'string') return undefined;
        const before = this.#subscriptions.size;
        if (method === 'resources/subscribe') this.#subscriptions.add(uri);
        else this.#subscriptions.delete(uri);
        if (this.#subscriptions.size !== before) void this.#listen();
        return {};
      }
      default:
        return undefined;
    }
  }

  /** One subscriptions/listen for everything the child can announce; reopened when the URIs change. */
  async #listen(): Promise<void> {
    const previous = this.#listenId;
    const capabilities = isObject(this.#discover?.capabilities) ? this.#discover.capabilities : {};
    const listChanged = (kind: string) => isObject(capabilities[kind]) && capabilities[kind].listChanged === true;
    const notifications = {
      ...(listChanged('tools') && { toolsListChanged: true }),
      ...(listChanged('prompts') && { promptsListChanged: true }),
      ...(listChanged('resources') && { resourcesListChanged: true }),
      ...(this.#subscriptions.size > 0 && { resourceSubscriptions: [...this.#subscriptions] }),
    };
    this.#listenId = undefined;
    if (previous !== undefined) await this.#cancel(previous);
    if (Object.keys(notifications).length === 0) return;
    const id = `${LISTEN_PREFIX}${++this.#listens}`;
    this.#listenId = id;
    const request = {
      jsonrpc: '2.0',
      id,
      method: 'subscriptions/listen',
      params: { notifications, _meta: this.envelope() },
    };
    await this.inner.sendRaw(`${JSON.stringify(request)}\n`).catch(() => undefined);
  }

  #cancel(id: string): Promise<void> {
    const notice = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } };
    return this.inner.sendRaw(`${JSON.stringify(notice)}\n`).catch(() => undefined);
  }

  async close(): Promise<void> {
    if (this.#listenId !== undefined) await this.#cancel(this.#listenId);
    await this.inner.close();
  }
}
