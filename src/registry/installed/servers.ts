// Installed servers described: summaries, missing env, one server's tools with their schemas.
import { z } from 'zod';
import type { ServerRecord } from '../../store/schema.js';
import type { HubPaths } from '../../core/paths.js';
import type { RouteTable } from '../../proxy/listing/routes.js';
import { mergeSharedStates, readSharedStates } from '../../store/shared-state.js';
import type { ServerManager, ServerStatusView } from '../../proxy/server-manager.js';
import type { Store } from '../../store/store.js';
import { withTools } from '../../store/tool-cache.js';
import type { NameMode } from '../../core/naming.js';
import { notInstalled } from './uninstall.js';

export { uninstallServer, type UninstallResult } from './uninstall.js';

export const ServerSummarySchema = z.object({
  name: z.string(),
  package: z.string().optional(),
  version: z.string().optional(),
  mode: z.enum(['npm', 'command']),
  kind: z
    .enum(['npm', 'command', 'remote', 'pypi', 'oci', 'mcpb'])
    .describe('What runs it: an npm package, a program on this machine, a URL, or a pypi, oci or mcpb package'),
  state: z.enum(['stopped', 'starting', 'ready', 'degraded', 'failed']),
  tools: z.array(z.string()).describe('Exposed tool names'),
  calls: z.number(),
  errors: z.number(),
  meanMs: z.number().nullable(),
  p95Ms: z.number().nullable(),
  restarts: z.number(),
  lastError: z.string().optional(),
  protocolVersion: z.string().optional().describe('The MCP revision hub negotiated with the server, while it runs'),
  instructions: z.string().optional().describe('What the server sent as instructions when it last started'),
  missingEnv: z
    .array(z.string())
    .optional()
    .describe('Required env vars not set: the server is not started until registry.install gives them in env'),
  logFile: z.string(),
  disabled: z.boolean().optional().describe('Disabled by its settings: not started, nothing of it listed'),
  withheld: z
    .number()
    .optional()
    .describe('Tools withheld or flagged because they changed since approval: registry.list { server } shows them'),
});
export type ServerSummary = z.infer<typeof ServerSummarySchema>;

export const ToolDetailSchema = z.object({
  tool: z.string().describe('The tool name as the server gives it: pass it to registry.call'),
  exposedName: z.string().optional().describe('The name hub lists it under'),
  description: z.string().optional(),
  inputSchema: z.record(z.string(), z.unknown()),
});
export type ToolDetail = z.infer<typeof ToolDetailSchema>;

export const toSummary = (view: ServerStatusView): ServerSummary => ({
  name: view.name,
  ...(view.package !== undefined && { package: view.package }),
  ...(view.version !== undefined && { version: view.version }),
  mode: view.mode,
  kind: view.kind,
  state: view.state,
  tools: view.tools,
  calls: view.calls,
  errors: view.errors,
  meanMs: view.meanMs,
  p95Ms: view.p95Ms,
  restarts: view.restarts,
  ...(view.lastError !== undefined && { lastError: view.lastError }),
  ...(view.protocolVersion !== undefined && { protocolVersion: view.protocolVersion }),
  ...(view.instructions !== undefined && { instructions: view.instructions }),
  logFile: view.logFile,
});

/**
 * Spells the exposed (dotted) names the manager reports the way this client sees them listed: by
 * the manager's own routing table (the one tools/list answers from, with this hub's integrity
 * setting), as it is when a name is spelled. Pass `() => table` to keep an earlier table (uninstall).
 */
export function exposedSpelling(routes: () => RouteTable, mode: NameMode): (dotted: string) => string {
  if (mode === 'dotted') return dotted => dotted;
  return dotted => routes().byName.get(dotted)?.underscore ?? dotted;
}

/** Required env vars a record lacks: from the record, or the catalog for records made before it kept them. */
export async function missingEnvOf(record: ServerRecord): Promise<string[]> {
  let required = record.requiredEnv;
  if (required === undefined && record.package !== undefined) {
    const { catalogHints } = await import('../install/hints.js');
    required = [...(catalogHints(record.package)?.requiredEnv ?? [])];
  }
  return (required ?? []).filter(key => !record.env[key]);
}

/** Summaries with the required env each server still lacks (registry.list). */
export async function withMissingEnv(store: Store, summaries: readonly ServerSummary[]): Promise<ServerSummary[]> {
  const { servers } = await store.read();
  return Promise.all(
    summaries.map(async summary => {
      const record = servers[summary.name];
      const missingEnv = record ? await missingEnvOf(record) : [];
      return missingEnv.length > 0 ? { ...summary, missingEnv } : summary;
    }),
  );
}

/**
 * One server's tools with their schemas: from the store cache, starting the server only when
 * nothing is cached and its required env is set (a server without its token must not run).
 */
export async function describeServer(
  name: string,
  mode: NameMode,
  store: Store,
  paths: HubPaths,
  manager: ServerManager,
): Promise<{ summary: ServerSummary; tools: ToolDetail[] }> {
  const record = (await store.read()).servers[name];
  if (!record) throw notInstalled(name);
  const known = withTools(paths, record).tools;
  const missingEnv = await missingEnvOf(record);
  // A disabled server is never started, not even to learn its tools.
  const cached =
    known.length > 0 || missingEnv.length > 0 || record.settings?.enabled === false ? known : await manager.start(name);
  const [status] = await manager.status(name);
  if (!status) throw notInstalled(name);
  // Exposed names come from the routing table the proxy lists (never parsed back).
  const table = manager.routes();
  const routes = table.byServer.get(name);
  const spellName = exposedSpelling(() => table, mode);
  const tools = cached.map(tool => {
    const route = routes?.get(tool.name);
    return {
      tool: tool.name,
      ...(route && { exposedName: mode === 'dotted' ? route.dotted : route.underscore }),
      ...(tool.description !== undefined && { description: tool.description }),
      inputSchema: tool.inputSchema as Record<string, unknown>,
    };
  });
  const summary = {
    ...toSummary(status),
    tools: status.tools.map(spellName),
    ...(missingEnv.length > 0 && { missingEnv }),
  };
  return { summary, tools };
}

/** What to do about a server that lacks required env: give it through registry.install. */
export function missingEnvNext(summary: ServerSummary): string | undefined {
  if (!summary.missingEnv?.length) return undefined;
  const example = summary.missingEnv.map(key => `"${key}": "…"`).join(', ');
  const source = summary.package ? `package: "${summary.package}", ` : '';
  return `Not started: it needs ${summary.missingEnv.join(', ')}. Call registry.install { ${source}name: "${summary.name}", env: { ${example} } } to set them (registry.install again with the same ${summary.package ? 'package' : 'command'} keeps everything else).`;
}

/**
 * This hub's view of a server joined with what other hubs running it publish (HUB_HOME/state):
 * the liveliest state and the summed calls, so every session shows the same truth.
 */
export function withOtherHubs(summary: ServerSummary, paths: HubPaths): ServerSummary {
  const others = readSharedStates(paths, summary.name).filter(state => state.pid !== process.pid);
  if (others.length === 0) return summary;
  const own = {
    pid: process.pid,
    state: summary.state,
    calls: summary.calls,
    errors: summary.errors,
    meanMs: summary.meanMs,
    p95Ms: summary.p95Ms,
    restarts: summary.restarts,
    ...(summary.lastError !== undefined && { lastError: summary.lastError }),
    updatedAt: new Date().toISOString(),
  };
  const merged = mergeSharedStates([own, ...others]);
  if (!merged) return summary;
  const { lastError, ...counts } = merged;
  return { ...summary, ...counts, ...(lastError !== undefined && { lastError }) };
}
