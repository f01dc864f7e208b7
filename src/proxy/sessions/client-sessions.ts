// Many client sessions behind one ClientSide: broadcasts to all, a child's request to exactly one.
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { RpcError } from '../../wire/rpc-error.js';
import type { ClientSide, RelayOptions, RelaySource } from './client-side.js';
import { mostVerbose } from './log-relay.js';
import { ExtensionOffers } from './extensions.js';
import { KNOWN_EXTENSIONS } from './known-extensions.js';

type Capability = 'sampling' | 'elicitation' | 'roots';

/** The ClientSide the shared proxy sees, over every session attached to one hub core. */
export interface ClientSessions extends ClientSide {
  /** Adds a session; the function returned detaches it. */
  attach(session: ClientSide): () => void;
  readonly size: number;
}

/**
 * Many client sessions behind one ClientSide (issue 15): announcements go to every attached
 * session (resources/updated only where it subscribed); a child's request to the person goes to
 * the one session with a call in flight to that child, never to another. Two sessions calling a
 * shared child at once cannot be told apart, so such a request is refused with how to fix it.
 */
export function clientSessions(): ClientSessions {
  const sessions = new Set<ClientSide>();
  const waiting: (() => void)[] = [];
  const rootsListeners: (() => void)[] = [];
  const offers = new ExtensionOffers(KNOWN_EXTENSIONS);
  const initialized = () => {
    for (const session of sessions) if (session.initialized()) return true;
    return false;
  };
  const each = (send: (session: ClientSide) => Promise<void>, only?: (session: ClientSide) => boolean) =>
    Promise.all([...sessions].filter(session => session.initialized() && (only?.(session) ?? true)).map(send)).then(
      () => undefined,
    );
  // Log messages: every session decides for itself (a 2026 client never initializes, yet takes
  // messages on its requests that name a logLevel: modern-client-side.ts).
  const everySession = (send: (session: ClientSide) => Promise<void>) =>
    Promise.all([...sessions].map(send)).then(() => undefined);

  const target = (options: RelayOptions, capability: Capability): ClientSide => {
    const owner = options.session as ClientSide | undefined;
    const chosen =
      owner !== undefined && sessions.has(owner)
        ? owner
        : capability === 'roots'
          ? pickForRoots(options.from)
          : pick(options.from);
    if (!chosen.capabilities()?.[capability]) {
      throw new RpcError(-32601, `The client connected to hub does not support ${capability}.`);
    }
    return chosen;
  };
  const pick = (from: RelaySource | undefined): ClientSide => {
    let found: ClientSide | undefined;
    let many = 0;
    if (from) {
      for (const [session, calls] of from.callers) {
        if (calls <= 0 || !sessions.has(session as ClientSide)) continue;
        found = session as ClientSide;
        many += 1;
      }
    }
    if (many > 1) {
      throw new RpcError(
        -32600,
        `server "${from?.server}" asked the person something while ${many} client sessions had calls in progress to it, ` +
          `so hub cannot tell whose it is and refused it. Mark the server per-session (hub-mcp servers configure ${from?.server} --per-session) ` +
          'so each session gets its own copy.',
      );
    }
    if (found) return found;
    // No call in flight (allowed only with proxy.allowUnsolicitedRequests): the session that started it.
    const starter = from?.starter as ClientSide | undefined;
    if (starter && sessions.has(starter)) return starter;
    if (sessions.size === 1) return sessions.values().next().value as ClientSide;
    throw new RpcError(
      -32600,
      `server "${from?.server ?? '?'}" asked the person something outside any call, and no single client session is its own; refused.`,
    );
  };

  // roots/list comes at a child's start too, outside any call: any session that has roots answers.
  const pickForRoots = (from: RelaySource | undefined): ClientSide => {
    try {
      return pick(from);
    } catch (error) {
      for (const session of sessions) if (session.capabilities()?.roots) return session;
      throw error;
    }
  };

  return {
    get size() {
      return sessions.size;
    },
    attach(session) {
      sessions.add(session);
      session.whenInitialized(() => {
        if (!sessions.has(session)) return;
        offers.note(session.capabilities());
        for (const run of waiting.splice(0)) run();
      });
      session.onRootsListChanged(() => {
        if (!sessions.has(session)) return;
        for (const notify of rootsListeners) notify();
      });
      return () => void sessions.delete(session);
    },
    initialized,
    whenInitialized(run) {
      if (initialized()) run();
      else waiting.push(run);
    },
    // What any attached session can take: a child's request is checked again against its own session.
    capabilities() {
      let merged: ClientCapabilities | undefined;
      for (const session of sessions) {
        const own = session.capabilities();
        if (own) merged = { ...merged, ...own };
      }
      return merged;
    },
    sendListChanged: kind => each(session => session.sendListChanged(kind)),
    sendResourceUpdated: uri =>
      each(
        session => session.sendResourceUpdated(uri),
        session => session.wantsResource?.(uri) ?? true,
      ),
    // Each session filters by its own level (sdk-client-side.ts); children send the most verbose.
    sendLog: params => everySession(session => session.sendLog(params)),
    logLevel: () => mostVerbose([...sessions].map(session => session.logLevel?.())),
    createMessage: (params, options) => target(options, 'sampling').createMessage(params, options),
    elicitInput: (params, options) => target(options, 'elicitation').elicitInput(params, options),
    listRoots: (params, options) => target(options, 'roots').listRoots(params, options),
    onRootsListChanged: listener => void rootsListeners.push(listener),
    extensionsOffered: () => offers.offered(),
  };
}
