// registry.uninstall: stop the server, remove its record, its files and (with purge) its data and
// decisions, on the audit log.
import { existsSync } from 'node:fs';
import { audited } from '../install/audit.js';
import { rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { HubConfig } from '../../core/config/config.js';
import { HubError } from '../../core/errors.js';
import type { ServerRecord } from '../../store/schema.js';
import type { Logger } from '../../core/logger.js';
import type { ServerManager } from '../../proxy/server-manager.js';
import type { Store } from '../../store/store.js';
import { removeToolCache } from '../../store/tool-cache.js';
import { removeOAuthState } from '../../store/oauth-store.js';
import { decisionsOf, describeKept } from '../decisions/kept-decisions.js';
import { purgeLeftovers } from '../install/leftovers.js';

export const notInstalled = (name: string) =>
  new HubError(
    'NOT_FOUND',
    `No server named "${name}" is installed; call registry.list to see the installed servers, or registry.search and registry.install to add one.`,
  );

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
