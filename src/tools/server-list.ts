// What registry.list returns and hub://servers serves: one builder for both, nothing started.
import type { HubConfig } from '../core/config/config.js';
import type { ServerManager } from '../proxy/server-manager.js';
import { listPendingInstalls } from '../registry/install/background.js';
import { toSummary, withMissingEnv, withOtherHubs, type ServerSummary } from '../registry/installed/servers.js';
import type { Store } from '../store/store.js';
import { driftOf } from '../proxy/listing/tool-integrity.js';
import { withTools } from '../store/tool-cache.js';

export interface ServerListResult {
  readonly structured: { servers: ServerSummary[]; next: string };
  readonly text: string;
}

// What registry.list without a server returns, and hub://servers serves as JSON: one builder
// for both. Reads the manager's status and the store, never starts a server.
export async function serverListResult(deps: {
  readonly config: HubConfig;
  readonly store: Store;
  readonly manager: ServerManager;
  /** Spells an exposed (dotted) tool name the way the client sees it listed. */
  readonly spell: (dotted: string) => string;
}): Promise<ServerListResult> {
  const { config, store, manager, spell } = deps;
  const records = (await store.read()).servers;
  // Settings and integrity at a glance (registry-configure.ts has the details).
  const marked = (summary: ServerSummary): ServerSummary => {
    const record = records[summary.name];
    if (!record) return summary;
    const withheld =
      config.integrity === 'off'
        ? 0
        : driftOf(withTools(config.paths, record).tools, record.fingerprints).size +
          (record.pendingInstructions === undefined ? 0 : 1);
    return {
      ...summary,
      ...(record.settings?.enabled === false && { disabled: true }),
      ...(withheld > 0 && { withheld }),
    };
  };
  const servers = (
    await withMissingEnv(
      store,
      (await manager.status())
        .map(view => withOtherHubs(toSummary(view), config.paths))
        // Instructions only in the one-server view: this list stays short however many are installed.
        .map(({ instructions: _instructions, ...summary }) => ({ ...summary, tools: summary.tools.map(spell) })),
    )
  ).map(marked);
  const installing = listPendingInstalls(config).map(
    entry =>
      `${entry.name}  ${entry.package}  ${entry.state === 'installing' ? `installing: ${entry.step}` : `install failed: ${entry.step}`}`,
  );
  const next =
    installing.length > 0
      ? `registry.list { server } shows an install's step. ${installing.join('; ')}`
      : servers.length === 0
        ? 'Nothing installed yet: find a server with registry.search, then registry.install.'
        : "registry.list { server } shows a server's tools with input schemas.";
  const lines = servers.map(
    s =>
      `${s.name}  ${s.package ? `${s.package}@${s.version ?? '?'}` : s.kind}  ${s.state}${s.protocolVersion ? ` (MCP ${s.protocolVersion})` : ''}  ${s.tools.length} tools  calls ${s.calls} errors ${s.errors}${s.p95Ms !== null ? ` p95 ${s.p95Ms} ms` : ''}${s.lastError ? `  last error: ${s.lastError}` : ''}${s.missingEnv ? `  missing env: ${s.missingEnv.join(', ')}` : ''}${s.disabled ? '  disabled' : ''}${s.withheld ? `  ${s.withheld} changed tools await approval` : ''}`,
  );
  return { structured: { servers, next }, text: [...lines, next].join('\n') };
}
