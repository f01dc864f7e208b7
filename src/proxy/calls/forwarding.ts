import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { HubError } from '../../core/errors.js';
import type { FastForwarder } from '../../wire/fast-path.js';
import { forwardCall, sdkCaller } from './forward.js';
import type { Route, RouteTable } from '../listing/routes.js';
import type { Slots } from '../slots/slots.js';
import { refusedResult, unavailable } from '../slots/status-view.js';
import type { ServerExtra } from '../sessions/client-side.js';
import type { Caller } from '../../wire/caller.js';
import type { ServerSlot } from '../slots/server-slot.js';
import { taskSupportOf } from '../listing/task-listing.js';
import { declaresTasks } from '../../wire/tasks-extension.js';

/** Runs a task-required tool inside an ordinary call (tasks/run.ts). */
export type TaskRunner = (slot: ServerSlot, route: Route, args: Args, caller: Caller) => Promise<CallToolResult>;

type Args = Record<string, unknown> | undefined;

/** Runs a task-capable tool as a Tasks-extension task (tasks/extension-tasks.ts); undefined: its child runs no tasks. */
export type ExtensionTaskRunner = (
  slot: ServerSlot,
  route: Route,
  args: Args,
  caller: Caller,
) => Promise<CallToolResult | undefined>;

/** One route's forwarders: for the fast path (raw bytes back) and for the SDK Server's request context. */
interface RouteForwarders {
  readonly fast: FastForwarder;
  readonly withExtra: (args: Args, extra: ServerExtra) => Promise<CallToolResult>;
}

/**
 * Where a proxied call goes: a route's forwarders are made once and kept while the route is in
 * the table (a rebuilt table has new routes, and the old forwarders go with the old routes).
 */
export class CallForwarding {
  #cache = new WeakMap<Route, RouteForwarders>();

  constructor(
    private readonly slots: Slots,
    private readonly table: () => RouteTable,
    private readonly timeoutMs: number,
    /** Re-reads the store when another hub changed it (a server installed elsewhere). */
    private readonly refresh: () => Promise<void>,
    private readonly runTask?: TaskRunner,
    private readonly extensionTask?: ExtensionTaskRunner,
  ) {}

  #forwarders(route: Route): RouteForwarders {
    let forwarders = this.#cache.get(route);
    if (forwarders === undefined) {
      const { slots, timeoutMs, runTask } = this;
      // The shared slot, or a per-session server's slot of the calling session.
      const live = (session: object | undefined) => {
        const slot = slots.forSession(route.server, session);
        return slot && !slots.closed ? slot : undefined;
      };
      // A tool that requires a task, called without one: hub runs the task for the caller.
      const asTask = runTask && taskSupportOf(route.listed.dotted) === 'required' ? runTask : undefined;
      // A task-capable tool, called by a 2026-07-28 client that declared the Tasks extension: a task of hub's.
      const { extensionTask } = this;
      const asExtension =
        extensionTask && taskSupportOf(route.listed.dotted) !== 'forbidden' ? extensionTask : undefined;
      forwarders = {
        fast: (args, caller) => {
          const slot = live(caller.session);
          if (!slot) return Promise.resolve(unavailable(route.server));
          if (asExtension && declaresTasks(caller.meta))
            return asExtension(slot, route, args, caller).then(
              created =>
                created ??
                (asTask
                  ? asTask(slot, route, args, caller)
                  : forwardCall(slot, route.tool, route.dotted, args, caller, timeoutMs)),
            );
          if (asTask) return asTask(slot, route, args, caller);
          return forwardCall(slot, route.tool, route.dotted, args, caller, timeoutMs);
        },
        withExtra: (args, extra) => {
          const caller = sdkCaller(extra);
          const slot = live(caller.session);
          if (!slot) return Promise.resolve(unavailable(route.server));
          if (asTask) return asTask(slot, route, args, caller);
          return forwardCall(slot, route.tool, route.dotted, args, caller, timeoutMs);
        },
      };
      this.#cache.set(route, forwarders);
    }
    return forwarders;
  }

  /** The fast path's forwarder for an exposed name in either spelling (a refused tool answers why). */
  fast(name: string): FastForwarder | undefined {
    const route = this.table().byName.get(name);
    return route ? this.#forwarders(route).fast : this.#refusal(name);
  }

  /** The SDK Server's forwarder for an exposed name in either spelling (a refused tool answers why). */
  find(name: string): RouteForwarders['withExtra'] | undefined {
    const route = this.table().byName.get(name);
    return route ? this.#forwarders(route).withExtra : this.#refusal(name);
  }

  // A tool left out by its server's settings or by tool integrity: never "unknown tool", and never started.
  #refusal(name: string): (() => Promise<CallToolResult>) | undefined {
    const why = this.table().refused.get(name);
    return why === undefined ? undefined : () => Promise.resolve(refusedResult(why));
  }

  /** By server and the tool's own name (registry.call); a server never listed yet is started to learn its tools. */
  async call(serverName: string, tool: string, args: Args, extra: ServerExtra): Promise<CallToolResult> {
    const { slots } = this;
    if (slots.closed) return unavailable(serverName);
    if (!slots.has(serverName)) await this.refresh();
    const slot = slots.require(serverName);
    const refused = this.table().refusedByServer.get(serverName)?.get(tool);
    if (refused !== undefined) throw new HubError(refused.code, refused.message);
    let route = this.table().byServer.get(serverName)?.get(tool);
    // Never listed yet (installed elsewhere, cache empty): start it to learn its tools.
    if (!route && slot.state !== 'ready' && slot.record.tools.length === 0) {
      await slot.connection();
      route = this.table().byServer.get(serverName)?.get(tool);
    }
    if (!route) {
      throw new HubError(
        'NOT_FOUND',
        `Server "${serverName}" has no tool named "${tool}"; registry.list with {"server": "${serverName}"} lists its tools.`,
      );
    }
    return this.#forwarders(route).withExtra(args, extra);
  }
}
