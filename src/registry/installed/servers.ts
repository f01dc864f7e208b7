import { existsSync } from 'node:fs';
import { audited } from '../install/audit.js';
import { rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { HubConfig } from '../../core/config/config.js';
import { HubError } from '../../core/errors.js';
import type { ServerRecord } from '../../store/schema.js';
import type { Logger } from '../../core/logger.js';
import type { HubPaths } from '../../core/paths.js';
import { buildRoutes } from '../../proxy/listing/routes.js';
import { mergeSharedStates, readSharedStates } from '../../store/shared-state.js';
import type { ServerManager, ServerStatusView } from '../../proxy/server-manager.js';
import type { Store } from '../../store/store.js';
import { allWithTools, removeToolCache, withTools } from '../../store/tool-cache.js';
import { removeOAuthState } from '../../store/oauth-store.js';
import type { NameMode } from '../../core/naming.js';
import { decisionsOf, describeKept } from '../decisions/kept-decisions.js';
import { purgeLeftovers } from '../install/leftovers.js';

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

const notInstalled = (name: string) =>
  new HubError(
    'NOT_FOUND',
    `No server named "${name}" is installed; call registry.list to see the installed servers, or registry.search and registry.install to add one.`,
  );

/** Spells the exposed (dotted) names the manager reports the way this client sees them listed. */
export async function exposedSpelling(
  store: Store,
  paths: HubPaths,
  mode: NameMode,
): Promise<(dotted: string) => string> {
  if (mode === 'dotted') return dotted => dotted;
  const table = buildRoutes(allWithTools(paths, Object.values((await store.read()).servers)));
  return dotted => table.byName.get(dotted)?.underscore ?? dotted;
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
  // Exposed names come from the same routing table the proxy lists (never parsed back).
  const routes = buildRoutes(allWithTools(paths, Object.values((await store.read()).servers))).byServer.get(name);
  const spellName = await exposedSpelling(store, paths, mode);
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

export interface UninstallResult {
  name: string;
  removedTools: string[];
  folderRemoved: string | undefined;
  /** The data folder, kept for a later install of the same name (unless purged). */
  dataKept: string | undefined;
  dataRemoved: string | undefined;
  logFile: string;
  /** The person's decisions about it, kept for a later install under its name. */
  decisionsKept?: string[];
  /** Not installed: what an unfinished install had left, removed by --purge. */
  leftovers?: string[];
}

/**
 * Stop the child, drop the record and tools/<name>.json, refresh the routes (list_changed), delete
 * servers/<name>; the log and the data folder stay (purge: the data folder goes too).
 */
export function uninstallServer(
  name: string,
  deps: { config: HubConfig; log: Logger; store: Store; manager: ServerManager },
  options: {
    purge?: boolean | undefined;
    /** The person's own uninstall (`hub uninstall --purge`): their decisions go too. */
    forgetDecisions?: boolean | undefined;
  } = {},
): Promise<UninstallResult> {
  return audited(deps.config.paths, { kind: 'uninstall', server: name }, () => uninstallOnce(name, deps, options));
}

async function uninstallOnce(
  name: string,
  deps: { config: HubConfig; log: Logger; store: Store; manager: ServerManager },
  options: { purge?: boolean | undefined; forgetDecisions?: boolean | undefined },
): Promise<UninstallResult> {
  const { config, log, store, manager } = deps;
  if (!(await store.read()).servers[name]) {
    const removed = options.purge ? await purgeLeftovers(name, config.paths) : [];
    if (removed.length === 0) throw notInstalled(name);
    log.info({ server: name, removed }, 'removed what an unfinished install left');
    return {
      name,
      removedTools: [],
      folderRemoved: removed[0],
      dataKept: undefined,
      dataRemoved: removed.at(-1),
      logFile: config.paths.serverLog(name),
      leftovers: removed,
    };
  }
  const [status] = await manager.status(name);
  await manager.stop(name);
  let decisionsKept: string[] | undefined;
  const record = await store.update(data => {
    const found = data.servers[name];
    // The person's decisions outlive the record: a later install under this name gets them back.
    const kept = found && !options.forgetDecisions ? decisionsOf(config.paths, found, config.integrity) : undefined;
    if (kept) data.kept[name] = kept;
    else delete data.kept[name];
    decisionsKept = kept && describeKept(kept).length > 0 ? describeKept(kept) : undefined;
    delete data.servers[name];
    // Under the lock, so no hub caching this server's tools can write the file back after it.
    removeToolCache(config.paths, name);
    return found;
  });
  if (!record) throw notInstalled(name);
  // A remote server's sign-in goes with it (a later install under this name signs in again).
  removeOAuthState(config.paths.authFile(name));
  await manager.reload();
  const folder = config.paths.serverDir(name);
  const dataDir = record.dataDir ?? config.paths.serverDataDir(name);
  let folderRemoved: string | undefined;
  if (record.mode === 'npm' || record.kind === 'mcpb') {
    if (!options.purge && record.dataDir === undefined) await keepLegacyData(record, folder, dataDir);
    await rm(folder, { recursive: true, force: true });
    folderRemoved = folder;
  }
  let dataRemoved: string | undefined;
  if (options.purge && existsSync(dataDir)) {
    await rm(dataDir, { recursive: true, force: true });
    dataRemoved = dataDir;
  }
  const dataKept = !options.purge && existsSync(dataDir) ? dataDir : undefined;
  log.info({ server: name, folderRemoved, dataKept, dataRemoved }, 'server uninstalled');
  return {
    name,
    removedTools: status?.tools ?? [],
    folderRemoved,
    dataKept,
    dataRemoved,
    logFile: config.paths.serverLog(name),
    ...(decisionsKept && { decisionsKept }),
  };
}

// A record from before data folders: its data files move out before the package folder goes.
async function keepLegacyData(record: ServerRecord, folder: string, dataDir: string): Promise<void> {
  if (record.package === undefined) return;
  const [{ catalogHints }, { adoptDataDir }] = await Promise.all([
    import('../install/hints.js'),
    import('../install/data-dir.js'),
  ]);
  const { copied } = await adoptDataDir({
    packageFolder: join(folder, 'node_modules', record.package),
    cwd: record.cwd ?? folder,
    folder: dataDir,
    dataEnv: catalogHints(record.package)?.dataEnv,
    env: record.env,
    args: record.args.slice(1),
  });
  // Nothing to keep: no empty folder left behind either.
  if (copied.length === 0) await rmdir(dataDir).catch(() => undefined);
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
