// An MCP App's own name for its server's tool, found for a session that has the Apps extension.
import { appMayCall, hasAppMeta } from '../listing/apps.js';
import type { Route, RouteTable } from '../listing/routes.js';
import { takesApps } from '../sessions/apps-extension.js';

// An MCP App calls its own server's tools by their own names (`get-time`, not hub's
// `basic_get-time`), and its host passes the call to hub unchanged. So, for a session with the
// extension, a name hub does not know is looked up among the tools an app may call of the servers
// that have app views. Zod- and SDK-free.

/** child tool name → the routes of servers with views whose tool of that name an app may call. */
const memo = new WeakMap<RouteTable, Map<string, Route[]>>();

function appCallable(table: RouteTable): Map<string, Route[]> {
  const known = memo.get(table);
  if (known) return known;
  const byTool = new Map<string, Route[]>();
  for (const tools of table.byServer.values()) {
    const routes = [...tools.values()];
    // Only a server with a view can have an app calling it.
    if (!routes.some(route => hasAppMeta(route.listed.dotted as Record<string, unknown>))) continue;
    for (const route of routes) {
      if (!appMayCall(route.listed.dotted as Record<string, unknown>)) continue;
      byTool.set(route.tool, [...(byTool.get(route.tool) ?? []), route]);
    }
  }
  memo.set(table, byTool);
  return byTool;
}

/**
 * The route of an app's call by the tool's own name, for a session with MCP Apps; a string (the
 * error, naming the servers and the fix) when several servers' apps could mean it; else undefined.
 */
export function appRoute(
  capabilities: Readonly<Record<string, unknown>> | undefined,
  table: RouteTable | undefined,
  name: string,
): Route | string | undefined {
  if (!takesApps(capabilities)) return undefined;
  const routes = table && appCallable(table).get(name);
  if (routes === undefined) return undefined;
  if (routes.length === 1) return routes[0];
  return (
    `Tool "${name}" is ambiguous: the apps of ${routes.map(route => `"${route.server}"`).join(' and ')} each have one. ` +
    `Call it by hub's name for it (${routes.map(route => route.underscore).join(', ')}).`
  );
}
