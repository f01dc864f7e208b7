// What one client session is shown now: its project, config edits, calls, finds and installs.
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ExposureSettings, HubConfig } from '../../core/config/config.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { NameMode } from '../../core/naming.js';
import { addToolUsage, readToolUsage, type ToolUsage } from '../../store/tool-usage.js';
import type { ClientSide } from '../sessions/client-side.js';
import { pinMatcher, planExposure, selectExposed, type ExposurePlan, type Selection } from './plan.js';
import { lackedNeeds, markNeeds } from '../listing/tool-needs.js';
import { withoutAppMeta } from '../listing/apps.js';
import { takesApps } from '../sessions/apps-extension.js';
import { resolveProject, warnIgnored, watchProjectFolders, type ProjectScope } from './project-file.js';
import type { Route, RouteTable } from '../listing/routes.js';

/** What one client session is shown now (tools.search reports it). */
export interface ExposureView {
  readonly plan: ExposurePlan;
  readonly project: ProjectScope;
  /** The routes of the servers in scope (the project's, or all). */
  readonly scope: readonly Route[];
  readonly selection: Selection<Route>;
}

export interface ExposureDeps {
  readonly config: HubConfig;
  readonly log: Logger;
  readonly client: ClientSide;
  /** The client's initialize name (undefined before initialize). */
  readonly clientName: () => string | undefined;
  readonly table: () => RouteTable;
  /** hub's own tools listed besides (they count against a budget). */
  readonly ownCount: number;
  /** tools.search as listed, its description naming these servers. */
  readonly searchEntry: (scope: readonly Route[], plan: ExposurePlan) => Record<NameMode, Tool>;
  /** tools/list_changed to the client. */
  readonly announce: () => void;
  /** Where the lookup starts when the client has no roots (hub's working folder). */
  readonly cwd?: string;
}

// Calls are added to tool-usage.json at most this often (and at close).
const FLUSH_EVERY_MS = 5_000;
const ROOTS_TIMEOUT_MS = 5_000;
// The SDK (1.32.2) never removes its listener from a request's signal: an AbortSignal.timeout
// fired after the answer and sent the client a notifications/cancelled for it 5 s after every
// roots-capable session started. The request's own timeout is cleared on the answer; this signal
// never aborts.
const NEVER_ABORTED = new AbortController().signal;

// Bounds on what a session keeps of its own use (older entries fall off first).
const KEPT_CALLED = 200;
const KEPT_ADDED = 100;
const KEPT_INSTALLED = 16;

const keyOf = (route: Pick<Route, 'server' | 'tool'>) => `${route.server}\0${route.tool}`;

/** Moves `key` to the end of an insertion-ordered set (most recent last), dropping the oldest past `max`. */
function touch(set: Set<string>, key: string, max: number): void {
  set.delete(key);
  set.add(key);
  if (set.size > max) set.delete(set.values().next().value!);
}

/**
 * One client session's exposure: the plan (mode from the project file, else HUB_EXPOSURE or
 * config.json; `auto` by the client's name), the project's servers, and the listed proxied tools
 * with tools.search first when something is hidden. The same array is handed out until something
 * changes; a change of project (file edited, roots changed) is announced with list_changed.
 */
export class ExposureSession {
  #project: ProjectScope;
  #starts: string[];
  #unwatch: () => void = () => undefined;
  #version = 0;
  #memo: { key: string; table: RouteTable; view: ExposureView; lists: Partial<Record<NameMode, Tool[]>> } | undefined;
  #usage: { table: RouteTable; servers: ToolUsage['servers'] } | undefined;
  #pending = new Map<string, Map<string, number>>();
  #flush: NodeJS.Timeout | undefined;
  #settings: ExposureSettings;
  #pinned: (route: Route) => boolean;
  #configWatch: FSWatcher | undefined;
  // This session's own use (proxy/exposure/plan.ts keeps these listed first): called tools, tools
  // tools.search added, servers it installed; each most recent last.
  #called = new Set<string>();
  #added = new Set<string>();
  #installed = new Set<string>();

  constructor(private readonly deps: ExposureDeps) {
    this.#settings = { mode: deps.config.exposure.mode, pin: deps.config.exposure.pin };
    this.#pinned = pinMatcher(this.#settings.pin);
    this.#watchConfig();
    this.#starts = [deps.cwd ?? process.cwd()];
    this.#project = this.#resolve();
    this.#watch();
    // The client's capabilities are known by then (sdk-client-side.ts), roots among them.
    deps.client.whenInitialized(() => void this.#fromRoots());
    deps.client.onRootsListChanged(() => void this.#fromRoots());
  }

  /** The plan, scope and selection now (memoized per table, client name and project). */
  view(): ExposureView {
    const table = this.deps.table();
    const name = this.deps.clientName();
    // What the client offers decides which tools are marked (tool-needs.ts); known from initialize.
    const offers = this.deps.client.capabilities();
    const key = `${this.#version}\0${name ?? ''}\0${offers?.elicitation ? 'e' : ''}${offers?.sampling ? 's' : ''}${takesApps(offers) ? 'a' : ''}`;
    if (this.#memo?.table === table && this.#memo.key === key) return this.#memo.view;
    const project = this.#project;
    const mode = project.kind === 'project' && project.exposure ? project.exposure : this.#settings.mode;
    const plan = planExposure(mode, name);
    const scope =
      project.kind === 'project' ? table.routes.filter(route => project.servers.has(route.server)) : table.routes;
    const usage = this.#usageFor(table);
    const routesOf = (keys: Set<string>) =>
      [...keys]
        .reverse()
        .map(key => {
          const [server, tool] = key.split('\0') as [string, string];
          return table.byServer.get(server)?.get(tool);
        })
        .filter((route): route is Route => route !== undefined);
    const selection = selectExposed(scope, plan, {
      ownCount: this.deps.ownCount,
      uses: route => usage[route.server]?.[route.tool] ?? 0,
      pinned: this.#pinned,
      kept: [...routesOf(this.#called), ...routesOf(this.#added)],
      installed: [...this.#installed].reverse(),
    });
    const view = { plan, project, scope, selection };
    this.#memo = { key, table, view, lists: {} };
    return view;
  }

  /** The proxied part of tools/list (tools.search first when listed); one array until a change. */
  list(mode: NameMode): Tool[] {
    const view = this.view();
    const memo = this.#memo!;
    const cached = memo.lists[mode];
    if (cached) return cached;
    // A tool that needs what this client does not offer is listed with a note saying so.
    const offers = this.deps.client.capabilities();
    // A session without MCP Apps gets no app metadata (listing/apps.ts).
    const apps = takesApps(offers);
    const tools = view.selection.listed.map(route => {
      const tool = markNeeds(route.listed[mode], lackedNeeds(route.needs, offers));
      return apps ? tool : withoutAppMeta(tool);
    });
    const list = view.selection.search ? [this.deps.searchEntry(view.scope, view.plan)[mode], ...tools] : tools;
    memo.lists[mode] = list;
    return list;
  }

  /**
   * Tools tools.search found, for a client that lists again on list_changed: listed from now on
   * (after pinned and called tools, within the budget), announced with list_changed when that
   * changes the list. True when it did.
   */
  add(routes: readonly Pick<Route, 'server' | 'tool'>[]): boolean {
    for (const route of [...routes].reverse()) touch(this.#added, keyOf(route), KEPT_ADDED);
    return this.#bump();
  }

  /** This session installed `server` (or changed it): its tools come next after the session's own. */
  installed(server: string): boolean {
    touch(this.#installed, server, KEPT_INSTALLED);
    return this.#bump();
  }

  /** One call of a proxied tool (any lane): kept listed by this session, counted for later sessions. */
  count(route: Pick<Route, 'server' | 'tool'>): void {
    // The list does not move with the call: it is kept from the next change on.
    touch(this.#called, keyOf(route), KEPT_CALLED);
    const tools = this.#pending.get(route.server) ?? new Map<string, number>();
    this.#pending.set(route.server, tools.set(route.tool, (tools.get(route.tool) ?? 0) + 1));
    this.#flush ??= setTimeout(() => void this.flush(), FLUSH_EVERY_MS).unref();
  }

  async flush(): Promise<void> {
    clearTimeout(this.#flush);
    this.#flush = undefined;
    const added = this.#pending;
    this.#pending = new Map();
    await addToolUsage(this.deps.config.paths, added);
  }

  async close(): Promise<void> {
    this.#unwatch();
    this.#configWatch?.close();
    await this.flush();
  }

  // Usage is read again only when the table changes: a session's listing does not move with each call.
  #usageFor(table: RouteTable): ToolUsage['servers'] {
    if (this.#usage?.table !== table) this.#usage = { table, servers: readToolUsage(this.deps.config.paths) };
    return this.#usage.servers;
  }

  #resolve(): ProjectScope {
    const project = resolveProject(this.#starts);
    warnIgnored(project, message => this.deps.log.warn(message));
    return project;
  }

  #watch(): void {
    this.#unwatch();
    this.#unwatch = watchProjectFolders(this.#starts, () => this.#changed(this.#resolve()));
  }

  /** The client's file:// roots become the start folders (clients without roots keep hub's cwd). */
  async #fromRoots(): Promise<void> {
    if (!this.deps.client.capabilities()?.roots) return;
    try {
      const { roots } = await this.deps.client.listRoots(undefined, {
        signal: NEVER_ABORTED,
        timeout: ROOTS_TIMEOUT_MS,
      });
      const folders = roots
        .slice(0, 32)
        .filter(root => root.uri.startsWith('file://'))
        .map(root => fileURLToPath(root.uri));
      if (folders.length === 0) return;
      this.#starts = folders;
      this.#watch();
      this.#changed(this.#resolve());
    } catch (error) {
      this.deps.log.debug(
        { err: errorMessage(error) },
        'could not read the client roots; the project is looked up from the working folder',
      );
    }
  }

  #changed(project: ProjectScope, settings: ExposureSettings = this.#settings): void {
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    if (same(serializable(project), serializable(this.#project)) && same(settings, this.#settings)) return;
    const before = this.#signature();
    this.#project = project;
    this.#settings = settings;
    this.#pinned = pinMatcher(settings.pin);
    this.#version += 1;
    if (this.#signature() !== before) this.deps.announce();
  }

  /** Recomputes the list; list_changed when it changed. */
  #bump(): boolean {
    const before = this.#signature();
    this.#version += 1;
    if (this.#signature() === before) return false;
    this.deps.announce();
    return true;
  }

  // config.json edited (mode, pins): applied at once. HUB_EXPOSURE, set by the client's entry, still wins.
  #watchConfig(): void {
    const file = this.deps.config.paths.configFile;
    let timer: NodeJS.Timeout | undefined;
    try {
      this.#configWatch = watch(dirname(file), { persistent: false }, (_event, name) => {
        if (name !== null && name !== basename(file)) return;
        clearTimeout(timer);
        timer = setTimeout(() => {
          const { mode, pin } = this.deps.config.exposure.reload();
          this.#changed(this.#project, { mode, pin });
        }, 50).unref();
      });
      this.#configWatch.on('error', () => this.#configWatch?.close());
    } catch {
      // No HUB_HOME folder yet, or not watchable: config.json is read again at the next start.
    }
  }

  #signature(): string {
    return JSON.stringify(this.list('dotted').map(tool => [tool.name, tool.description]));
  }
}

const serializable = (project: ProjectScope) =>
  project.kind === 'project' ? { ...project, servers: [...project.servers].sort() } : project;
