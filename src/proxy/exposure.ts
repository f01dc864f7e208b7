import type { ExposureMode } from '../core/config.js';
import { clientProfile } from './known-clients.js';

// Which proxied tools one client session lists (README "Many servers, few tools"). Pure, zod-free
// and SDK-free: the full hub and the cold-start lane decide the same way.

export interface ExposurePlan {
  /** Every tool; only pinned ones plus tools.search; or up to a budget plus tools.search. */
  readonly kind: 'all' | 'search' | 'capped';
  /** Most tools listed in all (hub's own included); Infinity unless capped. */
  readonly budget: number;
  /** Why: the setting or the client that decided it, for logs and tools.search's result. */
  readonly why: string;
}

/** The plan for a mode and the client's initialize name (only `auto` looks at the client). */
export function planExposure(mode: ExposureMode, clientName: string | undefined): ExposurePlan {
  if (mode === 'all') return { kind: 'all', budget: Infinity, why: 'mode all' };
  if (mode === 'search') return { kind: 'search', budget: Infinity, why: 'mode search' };
  const client = clientProfile(clientName);
  if (client.defers) return { kind: 'all', budget: Infinity, why: `auto: ${client.label} defers tools itself` };
  return { kind: 'capped', budget: client.budget, why: `auto: ${client.label}, ${client.budget} tools at most` };
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
}

/** A pin names a server, or a tool by its exposed name in either spelling. */
export const pinMatcher =
  (pins: readonly string[]) =>
  (route: Exposable): boolean =>
    pins.length > 0 && (pins.includes(route.server) || pins.includes(route.dotted) || pins.includes(route.underscore));

/**
 * The listed subset of routes (already limited to the servers in scope). Capped: everything if it
 * fits; otherwise pinned tools, then the most used, then whole servers in install order while they
 * fit, leaving one place for tools.search. Pinned tools are listed even past the budget: a person
 * asked for them by name.
 */
export function selectExposed<R extends Exposable>(
  routes: readonly R[],
  plan: ExposurePlan,
  options: SelectOptions<R>,
): Selection<R> {
  if (plan.kind === 'all' || (plan.kind === 'capped' && options.ownCount + routes.length <= plan.budget))
    return { listed: routes, hidden: 0, search: false };
  const chosen = new Set<R>(routes.filter(options.pinned));
  if (plan.kind === 'capped') {
    let room = plan.budget - options.ownCount - 1 - chosen.size;
    const used = routes
      .map((route, index) => ({ route, index, uses: options.uses(route) }))
      .filter(entry => entry.uses > 0 && !chosen.has(entry.route))
      .sort((a, b) => b.uses - a.uses || a.index - b.index);
    for (const { route } of used) {
      if (room <= 0) break;
      chosen.add(route);
      room -= 1;
    }
    for (const server of new Set(routes.map(route => route.server))) {
      const rest = routes.filter(route => route.server === server && !chosen.has(route));
      if (rest.length === 0 || rest.length > room) continue;
      for (const route of rest) chosen.add(route);
      room -= rest.length;
    }
  }
  const listed = routes.filter(route => chosen.has(route));
  const hidden = routes.length - listed.length;
  return { listed, hidden, search: hidden > 0 };
}
