// Where a proxied call goes: each route's forwarders, for the fast path and the SDK lane.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { HubError } from '../../core/errors.js';
import type { FastForwarder } from '../../wire/fast-path.js';
import { forwardCall, sdkCaller } from './forward.js';
import type { Route, RouteTable } from '../listing/routes.js';
import type { Slots } from '../slots/slots.js';
import { refusedResult, unavailable } from '../slots/status-view.js';
import type { ServerExtra } from '../sessions/client-side.js';
import type { Caller, RawCaller, ToolReply } from '../../wire/caller.js';
import type { ServerSlot } from '../slots/server-slot.js';
import { taskSupportOf } from '../listing/task-listing.js';
import { declaresTasks } from '../../wire/tasks-extension.js';

/** Runs a task-required tool inside an ordinary call (tasks/run.ts). */
export type TaskRunner = (slot: ServerSlot, route: Route, args: Args, caller: Caller) => Promise<CallToolResult>;

type Args = Record<string, unknown> | undefined;

/** The Tasks extension for the clients that declared it (tasks/extension-tasks.ts). */
export interface ExtensionTaskRunner {
  /** A task-capable tool's call as hub's task; undefined: its child runs no tasks (call it as usual). */
  create(slot: ServerSlot, route: Route, args: Args, caller: Caller): Promise<CallToolResult | undefined>;
  /** The call's answer, a 2026-07-28 child's task kept under hub's id. */
  adopt(slot: ServerSlot, route: Route, reply: ToolReply, caller: Caller): ToolReply;
}

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
      const { extensionTask } = this;
      forwarders = {
        fast: (args, caller) => {
          const slot = live(caller.session);
          if (!slot) return Promise.resolve(unavailable(route.server));
          // A 2026-07-28 client that declared the Tasks extension: it may get a task (extensionCall).
          if (extensionTask && declaresTasks(caller.meta))
            return this.#extensionCall(extensionTask, slot, route, args, caller);
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

  // A task-capable tool runs as hub's task; any other call's answer may be a 2026-07-28 child's task.
  async #extensionCall(
    extension: ExtensionTaskRunner,
    slot: ServerSlot,
    route: Route,
    args: Args,
    caller: RawCaller,
  ): Promise<ToolReply> {
    if (taskSupportOf(route.listed.dotted) !== 'forbidden') {
      const created = await extension.create(slot, route, args, caller);
      if (created) return created;
      if (this.runTask && taskSupportOf(route.listed.dotted) === 'required')
        return this.runTask(slot, route, args, caller);
    }
    const reply = await forwardCall(slot, route.tool, route.dotted, args, caller, this.timeoutMs);
    return extension.adopt(slot, route, reply, caller);
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
