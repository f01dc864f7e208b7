// A session's lanes below the SDK Server: proxied tools/call on raw lines, and the 2026-07-28 lane.
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { createFastPath } from '../wire/fast-path.js';
import { createModernLane, type EraHooks } from '../wire/modern-lane.js';
import type { ModernListeners } from '../wire/modern-listen.js';
import type { SessionInterceptor, SessionWriter } from '../wire/session.js';
import { modernCapabilities } from '../wire/tasks-extension.js';
import type { ClientSide } from '../proxy/sessions/client-side.js';
import type { ProxiedTools } from '../proxy/types.js';
import type { ClientProtocol } from '../proxy/tasks/handlers.js';
import type { ExposedTools } from '../tools/exposed-tools.js';

/** Built here from the proxy's resolver: proxied tools/call below the SDK Server, for this session. */
export function sessionFastPath(
  deps: {
    readonly proxied: ProxiedTools;
    readonly client: ClientSide;
    readonly protocol: ClientProtocol;
    readonly exposed: ExposedTools;
  },
  sendRaw: SessionWriter,
): SessionInterceptor {
  const { proxied, client, protocol, exposed } = deps;
  const resolve = proxied.fast;
  const lane = resolve && createFastPath(resolve, sendRaw, client);
  // Every message passes here first: the client's initialize tells its protocol revision.
  return message => {
    protocol.note(message);
    const taken = lane?.(message) ?? false;
    const params = message.params as { name?: unknown } | undefined;
    if (taken && typeof params?.name === 'string') exposed.countName(params.name);
    return taken;
  };
}

/** server/discover, per-request revisions, subscriptions/listen and the Tasks extension's methods. */
export function sessionEraLane(
  deps: {
    readonly serverInfo: Record<string, unknown>;
    readonly listeners: ModernListeners;
    readonly proxied: ProxiedTools;
    readonly client: ClientSide;
    readonly capabilities: Record<string, unknown>;
    /** The installed servers' instructions as db.json holds them now. */
    readonly instructions: () => string;
  },
  send: (message: Record<string, unknown>) => Promise<void>,
): EraHooks {
  const { serverInfo, listeners, proxied, client, capabilities, instructions } = deps;
  const tasks = proxied.extensionTasks;
  return createModernLane(
    {
      serverInfo,
      listeners,
      ...(tasks && { tasks: { handle: (method, params) => tasks.handle(method, params, client) } }),
      discover: () => ({
        legacyVersions: SUPPORTED_PROTOCOL_VERSIONS,
        capabilities: modernCapabilities(capabilities),
        serverInfo,
        instructions: instructions(),
      }),
    },
    send,
  );
}
