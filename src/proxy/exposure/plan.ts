// Which proxied tools one session lists, from the mode and its client: pure, shared with cold start.
import type { ExposureMode } from '../../core/config/config.js';
import { clientProfile } from './known-clients.js';

// Which proxied tools one client session lists (docs/exposure.md "Many servers, few tools"). Pure, zod-free
// and SDK-free: the full hub and the cold-start lane decide the same way.

export interface ExposurePlan {
  /** Every tool; only pinned ones plus tools.search; or up to a budget plus tools.search. */
  readonly kind: 'all' | 'search' | 'capped';
  /** Most tools listed in all (hub's own included); Infinity unless capped. */
  readonly budget: number;
  /** The client lists tools again on list_changed (known-clients.ts), whatever the mode. */
  readonly relists: boolean;
  /** Why: the setting or the client that decided it, for logs and tools.search's result. */
  readonly why: string;
}

/** The plan for a mode and the client's initialize name (only `auto` looks at the client's budget). */
export function planExposure(mode: ExposureMode, clientName: string | undefined): ExposurePlan {
  const client = clientProfile(clientName);
  const relists = client.relists;
  if (mode === 'all') return { kind: 'all', budget: Infinity, relists, why: 'mode all' };
  if (mode === 'search') return { kind: 'search', budget: Infinity, relists, why: 'mode search' };
  if (client.defers)
    return { kind: 'all', budget: Infinity, relists, why: `auto: ${client.label} defers tools itself` };
  return {
    kind: 'capped',
    budget: client.budget,
    relists,
    why: `auto: ${client.label}, ${client.budget} tools at most`,
  };
}

/** True when a session with this mode and client lists every proxied tool (nothing for tools.search). */
export function listsEveryTool(
  mode: ExposureMode,
  clientName: string | undefined,
  ownCount: number,
  proxied: number,
): boolean {
  const plan = planExposure(mode, clientName);
  return plan.kind === 'all' || (plan.kind === 'capped' && ownCount + proxied <= plan.budget) || proxied === 0;
}

/** What a selection needs of a route: its server and exposed names. */
export interface Exposable {
  readonly server: string;
  readonly dotted: string;
  readonly underscore: string;
}

export interface Selection<R> {
  /** Listed, in the routing table's order. */
  readonly listed: readonly R[];
  /** In scope but not listed: reachable through tools.search, by name, and registry.call. */
  readonly hidden: number;
  /** Whether tools.search is listed (something in scope is hidden). */
  readonly search: boolean;
}

export interface SelectOptions<R> {
  /** hub's own tools listed besides (they count against a budget). */
  readonly ownCount: number;
  /** Calls made to this tool (hub's call metrics, all sessions): the most used are listed first. */
  readonly uses: (route: R) => number;
  /** Pinned in config: always listed. */
  readonly pinned: (route: R) => boolean;
  /** This session's tools: those it called, then those tools.search added, most recent first. */
  readonly kept?: readonly R[];
  /** Servers this session installed, most recent first: their tools come after the kept ones. */
  readonly installed?: readonly string[];
}

/** A pin names a server, or a tool by its exposed name in either spelling. */
export const pinMatcher =
  (pins: readonly string[]) =>
  (route: Exposable): boolean =>
    pins.length > 0 && (pins.includes(route.server) || pins.includes(route.dotted) || pins.includes(route.underscore));

/**
 * The listed subset of routes (already limited to the servers in scope). Capped: everything if it
 * fits; otherwise tool by tool, leaving one place for tools.search: pinned tools, the tools this
 * session called or had added, the servers it installed, the most used (all sessions), then the
 * rest by relevance: servers this session works with, then servers by use, then install order.
 * So a change of the installed servers never drops a tool the session uses for another, and no
 * place is left empty while a tool is left out. Pinned tools are listed even past the budget: a
 * person asked for them by name. Search: pinned tools and the session's kept ones.
 */
export function selectExposed<R extends Exposable>(
  routes: readonly R[],
  plan: ExposurePlan,
  options: SelectOptions<R>,
): Selection<R> {
  if (plan.kind === 'all' || (plan.kind === 'capped' && options.ownCount + routes.length <= plan.budget))
    return { listed: routes, hidden: 0, search: false };
  const inScope = new Set(routes);
  const kept = (options.kept ?? []).filter(route => inScope.has(route));
  const chosen = new Set<R>(routes.filter(options.pinned));
  if (plan.kind === 'search') for (const route of kept) chosen.add(route);
  if (plan.kind === 'capped') {
    let room = plan.budget - options.ownCount - 1 - chosen.size;
    const take = (candidates: Iterable<R>) => {
      for (const route of candidates) {
        if (room <= 0) return;
        if (chosen.has(route)) continue;
        chosen.add(route);
        room -= 1;
      }
    };
    take(kept);
    const installed = options.installed ?? [];
    for (const server of installed) take(routes.filter(route => route.server === server));
    const uses = routes.map(options.uses);
    const order = routes.map((_route, index) => index);
    take(
      order
        .filter(index => uses[index]! > 0)
        .sort((a, b) => uses[b]! - uses[a]! || a - b)
        .map(index => routes[index]!),
    );
    // The rest: servers this session works with first, then by their calls, then install order.
    const near = new Set([...kept.map(route => route.server), ...installed]);
    const serverUses = new Map<string, number>();
    routes.forEach((route, index) => serverUses.set(route.server, (serverUses.get(route.server) ?? 0) + uses[index]!));
    const rank = (route: R) => (near.has(route.server) ? 1 : 0);
    take(
      order
        .sort(
          (a, b) =>
            rank(routes[b]!) - rank(routes[a]!) ||
            serverUses.get(routes[b]!.server)! - serverUses.get(routes[a]!.server)! ||
            a - b,
        )
        .map(index => routes[index]!),
    );
  }
  const listed = routes.filter(route => chosen.has(route));
  const hidden = routes.length - listed.length;
  return { listed, hidden, search: hidden > 0 };
}
