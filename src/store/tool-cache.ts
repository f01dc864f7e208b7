// Each server's cached tool list in tools/<name>.json, outside db.json, and what was trimmed.
import { mkdirSync, rmSync } from 'node:fs';
import type { HubPaths } from '../core/paths.js';
import { sweepAtomicTemps, writeFileAtomic } from '../core/write-atomic.js';
import { readIfExists } from './lock/file.js';
import {
  ToolCacheFileSchema,
  type CachedSurface,
  type CachedTool,
  type ServerRecord,
  type ServerWithTools,
  type ToolCacheFile,
  type ToolIssue,
} from './schema.js';

// Each server's tool list lives in tools/<name>.json, not in db.json: schemas are most of the
// bytes, and every store change rewrites db.json under the lock. db.json keeps toolsUpdatedAt,
// so a hub that watches db.json sees another hub's new cache. Small files, read synchronously.

/** The cached tools in tools/<name>.json; undefined when there is no readable file. */
export function readToolCache(paths: HubPaths, name: string): CachedTool[] | undefined {
  return readToolCacheFile(paths, name)?.tools;
}

/** What hub skipped or trimmed when it last took this server's tools/list (registry.list { server } shows it). */
export function readToolIssues(paths: HubPaths, name: string): ToolIssue[] {
  return readToolCacheFile(paths, name)?.issues ?? [];
}

export function readToolCacheFile(paths: HubPaths, name: string): ToolCacheFile | undefined {
  let text: string | undefined;
  try {
    text = readIfExists(paths.toolsFile(name));
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  try {
    const parsed = ToolCacheFileSchema.safeParse(JSON.parse(text));
    return parsed.success && parsed.data.server === name ? parsed.data : undefined;
  } catch {
    // A damaged cache is only a cache: the server lists its tools again when it next starts.
    return undefined;
  }
}

/**
 * Replaces tools/<name>.json atomically (0600 temp file in tools/, then rename). Call it under the
 * store's lock: temp files of this name left by a writer killed mid-write are removed first.
 */
export function writeToolCache(
  paths: HubPaths,
  name: string,
  tools: readonly CachedTool[],
  updatedAt: string,
  issues: readonly ToolIssue[] = [],
  surface?: CachedSurface,
  approvedTools: readonly CachedTool[] = [],
  pendingSurface: ToolCacheFile['pendingSurface'] = [],
): void {
  mkdirSync(paths.toolsDir, { recursive: true, mode: 0o700 });
  const body = ToolCacheFileSchema.parse({
    server: name,
    updatedAt,
    tools,
    ...(issues.length > 0 && { issues }),
    ...(surface !== undefined && { surface }),
    ...(approvedTools.length > 0 && { approvedTools }),
    ...(pendingSurface.length > 0 && { pendingSurface }),
  });
  const file = paths.toolsFile(name);
  sweepAtomicTemps(file);
  writeFileAtomic(file, `${JSON.stringify(body, null, 2)}\n`);
}

export function removeToolCache(paths: HubPaths, name: string): void {
  rmSync(paths.toolsFile(name), { force: true });
}

/**
 * The record's tools (and surface: prompts, resources, templates): its cache file once one was written for this install (toolsUpdatedAt is
 * set), else the inline list of an older db.json, else none yet.
 */
export function withTools(paths: HubPaths, record: ServerRecord): ServerWithTools {
  const file = record.toolsUpdatedAt === undefined ? undefined : readToolCacheFile(paths, record.name);
  const tools = file?.tools ?? record.tools ?? [];
  return file?.surface === undefined ? { ...record, tools } : { ...record, tools, surface: file.surface };
}

export const allWithTools = (paths: HubPaths, records: Iterable<ServerRecord>): ServerWithTools[] =>
  [...records].map(record => withTools(paths, record));
