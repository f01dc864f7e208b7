// hub's task ids and where each goes: the child, its own id, the session that owns it.
import { randomUUID } from 'node:crypto';
import type { Task } from '@modelcontextprotocol/sdk/types.js';
import type { ChildConnection } from '../child/connection.js';

/**
 * One task a child runs for hub, under hub's own id. The client only ever sees hub's id: two
 * children may both call a task "1", and a tasks/get goes to the child this route names (ids are
 * never parsed back).
 */
export interface TaskRoute {
  /** hub's id for it, the one the client sees. */
  readonly id: string;
  readonly server: string;
  /** The child's own id, sent to it unchanged. */
  readonly childId: string;
  /** The child process that runs it: a restarted child has lost its tasks. */
  readonly conn: ChildConnection;
  /** The tool's exposed (dotted) name, for messages. */
  readonly label: string;
  /** Created by the client's own task-augmented call: its status notifications go to the client. */
  readonly clientOwned: boolean;
  /** The session that created it (its ClientSide): the only one that sees it on a shared hub. */
  readonly owner?: object | undefined;
  /** The last status hub saw (with the child's id). */
  last: Task;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
export const isTerminal = (task: Pick<Task, 'status'>): boolean => TERMINAL.has(task.status);

/** The task as the client sees it: hub's id in place of the child's. */
export const asClientTask = <T extends { taskId: string }>(route: TaskRoute, task: T): T => ({
  ...task,
  taskId: route.id,
});

// A task with no ttl (unlimited) is still forgotten after this long, so the map stays bounded.
const NO_TTL_KEEP_MS = 24 * 60 * 60_000;
// Routes kept at most; past it the oldest ended ones go first.
const MAX_ROUTES = 1000;
const SWEEP_MS = 30_000;
// Early statuses kept (see #keepEarly): far more than the tasks being created at one moment.
const MAX_EARLY = 100;

interface Entry {
  route: TaskRoute;
  expiresAt: number;
  /** Lets the child be idle-stopped again (it is held while the task runs). */
  release?: () => void;
  watchers: Set<(task: Task) => void>;
}

/** hub's task id map (hub id → child and child id, and back for the child's notifications). */
export class TaskRoutes {
  #byId = new Map<string, Entry>();
  #byChild = new Map<string, string>();
  #sweeper: NodeJS.Timeout | undefined;
  // Status listeners per owning session (undefined: a hub with one session, or tests).
  #relays = new Map<object | undefined, (task: Task) => void>();
  #early = new Map<string, Task>();

  /** Where a status owner's client should hear about goes (notifications/tasks/status), with hub's id. */
  relayTo(listener: (task: Task) => void, owner?: object): () => void {
    this.#relays.set(owner, listener);
    return () => {
      if (this.#relays.get(owner) === listener) this.#relays.delete(owner);
    };
  }

  #relay(route: TaskRoute, task: Task): void {
    this.#relays.get(route.owner)?.(asClientTask(route, task));
  }

  /** Records a task a child created; `hold` keeps the child from idle stop until the task ends. */
  add(
    server: string,
    conn: ChildConnection,
    label: string,
    task: Task,
    options: { clientOwned: boolean; owner?: object | undefined; hold?: () => () => void },
  ): TaskRoute {
    // A status the child sent before its answer to tools/call reached hub is the newer one.
    const key = childKey(server, task.taskId);
    const early = this.#early.get(key);
    this.#early.delete(key);
    const last = early && early.lastUpdatedAt >= task.lastUpdatedAt ? early : task;
    const route: TaskRoute = {
      id: randomUUID(),
      server,
      childId: task.taskId,
      conn,
      label,
      clientOwned: options.clientOwned,
      owner: options.owner,
      last,
    };
    const entry: Entry = {
      route,
      expiresAt: Date.now() + (typeof task.ttl === 'number' ? task.ttl : NO_TTL_KEEP_MS),
      watchers: new Set(),
    };
    if (!isTerminal(last) && options.hold) entry.release = options.hold();
    this.#byId.set(route.id, entry);
    this.#byChild.set(key, route.id);
    // Told after the CreateTaskResult that names the task (the SDK writes it within this tick).
    if (last !== task && route.clientOwned) setTimeout(() => this.#relay(route, last), 0);
    this.#bound();
    this.#sweeper ??= setInterval(() => this.sweep(), SWEEP_MS).unref();
    return route;
  }

  /** The route of hub's id, while the child keeps the task. */
  get(id: string): TaskRoute | undefined {
    const entry = this.#byId.get(id);
    if (entry && entry.expiresAt <= Date.now()) {
      this.#drop(entry);
      return undefined;
    }
    return entry?.route;
  }

  /** The route of a child's own id when one child alone has it (a child's requests name their task only so). */
  soleByChildId(childId: string): TaskRoute | undefined {
    const found = [...this.#byId.values()].filter(entry => entry.route.childId === childId);
    return found.length === 1 ? found[0]?.route : undefined;
  }

  /** Every task still kept (of owner, when given), oldest first. */
  all(owner?: object): TaskRoute[] {
    this.sweep();
    const routes = [...this.#byId.values()].map(entry => entry.route);
    // A task with no owner (made by a caller that named no session) is everyone's, as before.
    return owner === undefined ? routes : routes.filter(route => route.owner === undefined || route.owner === owner);
  }

  /** The child's own id is gone there (expired, or the child restarted): forget it. */
  forget(route: TaskRoute): void {
    const entry = this.#byId.get(route.id);
    if (entry) this.#drop(entry);
  }

  /** A status hub learned (the child's notification, or an answer to tasks/get). */
  seen(server: string, task: Task): TaskRoute | undefined {
    const id = this.#byChild.get(childKey(server, task.taskId));
    const entry = id === undefined ? undefined : this.#byId.get(id);
    if (!entry) return undefined;
    const changed = entry.route.last.status !== task.status || entry.route.last.statusMessage !== task.statusMessage;
    entry.route.last = task;
    if (isTerminal(task)) this.#release(entry);
    if (changed) {
      for (const watcher of entry.watchers) watcher(task);
    }
    return entry.route;
  }

  /** A status notification from a child: recorded, and relayed when the client created the task. */
  fromChild(server: string, task: Task): void {
    const before = this.#byChild.get(childKey(server, task.taskId));
    const last = before === undefined ? undefined : this.#byId.get(before)?.route.last;
    const route = this.seen(server, task);
    if (!route) this.#keepEarly(server, task);
    // Only what changed: a child re-sends the same status now and then.
    if (route?.clientOwned && (last?.status !== task.status || last.statusMessage !== task.statusMessage))
      this.#relay(route, task);
  }

  /** Calls listener with each new status of this task until the returned function is called. */
  watch(route: TaskRoute, listener: (task: Task) => void): () => void {
    const entry = this.#byId.get(route.id);
    if (!entry) return () => undefined;
    entry.watchers.add(listener);
    return () => entry.watchers.delete(listener);
  }

  /** Drops what expired, and releases the children whose process ended (their tasks ended with it). */
  sweep(): void {
    const now = Date.now();
    for (const entry of this.#byId.values()) {
      if (entry.expiresAt <= now) this.#drop(entry);
      else if (entry.route.conn.exit) this.#release(entry);
    }
    if (this.#byId.size === 0) this.close();
  }

  close(): void {
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }

  // Statuses of tasks hub has no route for yet (the child's notification overtook its answer), a few kept briefly.
  #keepEarly(server: string, task: Task): void {
    this.#early.delete(childKey(server, task.taskId));
    this.#early.set(childKey(server, task.taskId), task);
    if (this.#early.size > MAX_EARLY) this.#early.delete(this.#early.keys().next().value as string);
  }

  #bound(): void {
    if (this.#byId.size <= MAX_ROUTES) return;
    const entries = [...this.#byId.values()];
    const ended = entries.filter(entry => isTerminal(entry.route.last));
    for (const entry of [...new Set([...ended, ...entries])].slice(0, this.#byId.size - MAX_ROUTES)) this.#drop(entry);
  }

  #release(entry: Entry): void {
    entry.release?.();
    delete entry.release;
  }

  #drop(entry: Entry): void {
    this.#release(entry);
    entry.watchers.clear();
    this.#byId.delete(entry.route.id);
    this.#byChild.delete(childKey(entry.route.server, entry.route.childId));
  }
}

const childKey = (server: string, childId: string) => `${server}\n${childId}`;
