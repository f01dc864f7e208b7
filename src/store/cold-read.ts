import { readFileSync } from 'node:fs';
import { defaultHubHome, hubPaths, type HubPaths } from '../core/paths.js';

// What the cold-start lane needs from HUB_HOME, read without zod or the store module: the
// installed servers with their cached tools, and the tool-name setting. It answers only when the
// data is plainly well formed; anything unusual returns undefined and the full hub answers instead
// (it salvages, migrates and reports), so both lanes always list the same tools.

type Json = Record<string, unknown>;

export interface LeanServer {
  readonly name: string;
  readonly order: number;
  readonly tools: Json[];
}

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const isStringArray = (value: unknown): boolean => Array.isArray(value) && value.every(isString);

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** HUB_HOME as the full config resolves it; undefined where the full hub would refuse to start. */
export function leanHome(env: NodeJS.ProcessEnv): string | undefined {
  if (env.HUB_HOME !== undefined) return env.HUB_HOME === '' ? undefined : env.HUB_HOME;
  return env.VITEST ? undefined : defaultHubHome();
}

/** The toolNames setting, or undefined when only the full config validation can tell. */
export function leanToolNames(env: NodeJS.ProcessEnv, home: string): 'dotted' | 'underscore' | 'auto' | undefined {
  const fromEnv = env.HUB_TOOL_NAMES;
  if (fromEnv !== undefined)
    return fromEnv === 'dotted' || fromEnv === 'underscore' || fromEnv === 'auto' ? fromEnv : undefined;
  const file = readJson(hubPaths(home).configFile);
  if (file === null) return 'underscore';
  // A file that sets toolNames counts only if all of it validates: the full hub decides.
  return isObject(file) && !('toolNames' in file) ? 'underscore' : undefined;
}

const isCachedTool = (tool: unknown): tool is Json =>
  isObject(tool) &&
  isString(tool.name) &&
  isObject(tool.inputSchema) &&
  tool.inputSchema.type === 'object' &&
  (tool.description === undefined || isString(tool.description));

const isToolList = (tools: unknown): tools is Json[] => Array.isArray(tools) && tools.every(isCachedTool);

// Every field the store schema requires of a server record, so the full hub never drops one this keeps.
function isServerRecord(record: unknown, key: string): record is Json {
  if (!isObject(record) || record.name !== key || !isString(record.command) || !isStringArray(record.args))
    return false;
  if (!isObject(record.env) || !Object.values(record.env).every(isString)) return false;
  if (record.mode !== 'npm' && record.mode !== 'command') return false;
  if (!isString(record.installedAt) || !Number.isInteger(record.order)) return false;
  const optionalStrings = [record.cwd, record.package, record.version, record.source, record.instructions];
  if (!optionalStrings.every(value => value === undefined || isString(value))) return false;
  if (record.autoStart !== undefined && typeof record.autoStart !== 'boolean') return false;
  return record.tools === undefined || isToolList(record.tools);
}

function toolsOf(paths: HubPaths, record: Json): Json[] | undefined {
  const inline = (record.tools as Json[] | undefined) ?? [];
  if (record.toolsUpdatedAt === undefined) return inline;
  if (!isString(record.toolsUpdatedAt)) return undefined;
  const file = readJson(paths.toolsFile(record.name as string));
  if (file === null) return inline;
  // A damaged cache file is a case the full hub handles (it falls back to the inline list).
  if (!isObject(file) || file.server !== record.name || !isString(file.updatedAt) || !isToolList(file.tools))
    return undefined;
  return file.tools;
}

/** The installed servers and their cached tools, or undefined when the full hub must read the store. */
export function leanServers(home: string, storeVersion: number): LeanServer[] | undefined {
  const paths = hubPaths(home);
  const db = readJson(paths.db);
  if (db === null) return [];
  if (!isObject(db) || db.version !== storeVersion || !isObject(db.servers) || !isObject(db.processes))
    return undefined;
  const servers: LeanServer[] = [];
  for (const [key, record] of Object.entries(db.servers)) {
    if (!isServerRecord(record, key)) return undefined;
    const tools = toolsOf(paths, record);
    if (!tools) return undefined;
    servers.push({ name: key, order: record.order as number, tools });
  }
  return servers;
}
