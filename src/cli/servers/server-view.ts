// A server as every hub sees it, for `hub servers`: published state, missing env named.
import type { HubPaths } from '../../core/paths.js';
import { mergeSharedStates, readSharedStates } from '../../store/shared-state.js';
import { catalogHints } from '../../registry/install/hints.js';
import type { ServerSummary } from '../../registry/installed/servers.js';
import type { ServerRecord } from '../../store/schema.js';

export type ServerLine = ServerSummary & { missingEnv: string[] };

/**
 * A server as every hub sees it: this command's hub starts nothing, so state and metrics come
 * from what the hubs running it publish (HUB_HOME/state), and a required env variable the record
 * lacks (catalog knowledge) is named, since the server cannot start without it.
 */
export function sharedView(summary: ServerSummary, record: ServerRecord | undefined, paths: HubPaths): ServerLine {
  const shared = mergeSharedStates(readSharedStates(paths, summary.name));
  const required = record?.package === undefined ? [] : (catalogHints(record.package)?.requiredEnv ?? []);
  const missingEnv = required.filter(key => !record?.env[key]);
  if (!shared) return { ...summary, missingEnv };
  const { lastError, ...counts } = shared;
  return { ...summary, ...counts, ...(lastError !== undefined && { lastError }), missingEnv };
}
