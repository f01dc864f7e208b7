// The installed servers as the proxy reads them: records with cached tools, and when a child is stale.
import type { HubPaths } from '../../core/paths.js';
import type { CachedSurface, CachedTool, ServerRecord, ServerWithTools } from '../../store/schema.js';
import type { Store } from '../../store/store.js';
import { allWithTools, withTools } from '../../store/tool-cache.js';

// The installed servers as the proxy reads them: store records with their cached tools (and surface) attached.

/** What decides how a child is launched: when any of it changes, the running child is stale. */
export const launchKey = (record: ServerRecord): string =>
  JSON.stringify([
    record.command,
    record.args,
    record.env,
    record.cwd ?? null,
    record.package ?? null,
    record.version ?? null,
    record.installedAt,
    // A new sandbox policy applies by starting the child again.
    record.settings?.sandbox ?? null,
  ]);

/** The first list is served from the store at once, so tools are listed before any await. */
export function readRecordsNow(paths: HubPaths, store: Store): ServerWithTools[] {
  return allWithTools(paths, Object.values(store.readNow()?.servers ?? {}));
}

/**
 * Tools read from tools/<name>.json, by toolsUpdatedAt: a db.json change re-reads only the cache
 * files whose stamp moved.
 */
export class ToolMemo {
  #memo = new Map<string, { stamp: string; tools: CachedTool[]; surface?: CachedSurface | undefined }>();

  constructor(private readonly paths: HubPaths) {}

  /** The record with its tools: remembered ones while its stamp holds, else read from its file. */
  attach(record: ServerRecord): ServerWithTools {
    const memo = this.#memo.get(record.name);
    if (memo && record.tools === undefined && memo.stamp === record.toolsUpdatedAt)
      return { ...record, tools: memo.tools, ...(memo.surface && { surface: memo.surface }) };
    const full = withTools(this.paths, record);
    if (record.toolsUpdatedAt === undefined) this.#memo.delete(record.name);
    else this.#memo.set(record.name, { stamp: record.toolsUpdatedAt, tools: full.tools, surface: full.surface });
    return full;
  }

  /** These tools (and surface) were just written to the server's cache file under this stamp. */
  remember(name: string, stamp: string, tools: CachedTool[], surface?: CachedSurface): void {
    this.#memo.set(name, { stamp, tools, surface });
  }
}

/**
 * The store record changed but not how the child is launched: a running child's lists stay, except
 * a surface a person just approved (its prints changed), which is what is listed now.
 */
export function whileRunning(current: ServerWithTools, next: ServerWithTools): ServerWithTools {
  const { tools, surface, surfacePrints } = current;
  // A person approved prompt or resource texts: the store's surface is what is listed now.
  const approved =
    next.surfacePrints !== undefined &&
    surfacePrints !== undefined &&
    JSON.stringify(next.surfacePrints) !== JSON.stringify(surfacePrints);
  const listed = approved ? next.surface : surface;
  return { ...next, tools, ...(listed && { surface: listed }) };
}
