// What the cold-start lane reads from HUB_HOME without zod: servers, cached tools, settings.
import { defaultHubHome, hubPaths, type HubPaths } from '../core/paths.js';
import { readJson } from './cold-json.js';

export { holdReads } from './cold-json.js';

// What the cold-start lane needs from HUB_HOME, read without zod or the store module: the
// installed servers with their cached tools, and the tool-name setting. It answers only when the
// data is plainly well formed; anything unusual returns undefined and the full hub answers instead
// (it salvages, migrates and reports), so both lanes always list the same tools.

type Json = Record<string, unknown>;

export interface LeanServer {
  readonly name: string;
  readonly order: number;
  readonly tools: Json[];
  /** What a person set (schema.ts ServerSettingsSchema) and the approved tool fingerprints: the listing applies them. */
  readonly settings?: { enabled?: boolean; allow?: string[]; deny?: string[] };
  readonly fingerprints?: Record<string, string>;
  /** Tool name → the client capabilities it needs (schema.ts toolNeeds): a client lacking one is the full hub's to answer. */
  readonly toolNeeds?: Record<string, ('elicitation' | 'sampling')[]>;
  /** Its cached prompts, resources and templates (schema.ts CachedSurfaceSchema), when it has them. */
  readonly surface?: { prompts: Json[]; resources: Json[]; resourceTemplates: Json[] };
}

export const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
export const isString = (value: unknown): value is string => typeof value === 'string';
export const isStringArray = (value: unknown): boolean => Array.isArray(value) && value.every(isString);

/** HUB_HOME as the full config resolves it; undefined where the full hub would refuse to start. */
export function leanHome(env: NodeJS.ProcessEnv): string | undefined {
  if (env.HUB_HOME !== undefined) return env.HUB_HOME === '' ? undefined : env.HUB_HOME;
  return defaultHubHome();
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

/** The exposure mode (HUB_EXPOSURE, else config.json), or undefined when only the full config can tell. */
export function leanExposure(env: NodeJS.ProcessEnv, home: string): 'all' | 'search' | 'auto' | undefined {
  const fromEnv = env.HUB_EXPOSURE;
  if (fromEnv !== undefined)
    return fromEnv === 'all' || fromEnv === 'search' || fromEnv === 'auto' ? fromEnv : undefined;
  const file = readJson(hubPaths(home).configFile);
  if (file === null) return 'auto';
  return isObject(file) && !('exposure' in file) ? 'auto' : undefined;
}

/**
 * False when a hub setting a client's entry sets may be invalid (HUB_HOME empty, or HUB_EXPOSURE,
 * HUB_TOOL_NAMES or HUB_SHARED set to a value these readers do not know): the full config decides.
 */
export function leanSettingsValid(env: NodeJS.ProcessEnv): boolean {
  const home = leanHome(env);
  if (home === undefined) return false;
  const known = (name: string, read: (env: NodeJS.ProcessEnv, home: string) => unknown): boolean =>
    env[name] === undefined || read(env, home) !== undefined;
  return (
    known('HUB_EXPOSURE', leanExposure) && known('HUB_TOOL_NAMES', leanToolNames) && known('HUB_SHARED', leanShared)
  );
}

/** Whether stdio entries use the shared hub (HUB_SHARED, else config.json), or undefined when only the full config can tell. */
export function leanShared(env: NodeJS.ProcessEnv, home: string): boolean | undefined {
  const fromEnv = env.HUB_SHARED;
  if (fromEnv !== undefined) return fromEnv === 'on' ? true : fromEnv === 'off' ? false : undefined;
  const file = readJson(hubPaths(home).configFile);
  // Only "sharedHub": {"enabled": false} turns sharing off, and only in a file that validates as a
  // whole (the full config ignores an invalid one): that case alone is the full config's, and it
  // runs the hub in-process, which loads zod anyway. Anything else shares, so the entry stays lean.
  return isObject(file) && isObject(file.sharedHub) && file.sharedHub.enabled === false ? undefined : true;
}

/** config `integrity` when config.json leaves it at its default; undefined when only the full config validation can tell. */
export function leanIntegrity(home: string): 'withhold' | undefined {
  const file = readJson(hubPaths(home).configFile);
  return file === null || (isObject(file) && !('integrity' in file)) ? 'withhold' : undefined;
}

const isBoolean = (value: unknown): boolean => typeof value === 'boolean';
const isStringRecord = (value: unknown): boolean => isObject(value) && Object.values(value).every(isString);

const isCachedTool = (tool: unknown): tool is Json =>
  isObject(tool) &&
  isString(tool.name) &&
  isObject(tool.inputSchema) &&
  tool.inputSchema.type === 'object' &&
  (tool.description === undefined || isString(tool.description));

const isToolList = (tools: unknown): tools is Json[] => Array.isArray(tools) && tools.every(isCachedTool);

const isToolIssue = (issue: unknown): boolean =>
  isObject(issue) &&
  isString(issue.tool) &&
  (issue.action === 'skipped' || issue.action === 'trimmed') &&
  isString(issue.reason);

export type Check = (value: unknown) => boolean;

// Unknown keys are dropped by the store's zod object; here they hand over, so both lanes agree.
const COLD_SETTINGS_FIELDS: Readonly<Record<string, Check>> = {
  enabled: isBoolean,
  allow: isStringArray,
  deny: isStringArray,
};

export const isOptionalString = (value: unknown): boolean => value === undefined || isString(value);
const listOf =
  (check: Check): Check =>
  value =>
    Array.isArray(value) && value.every(check);
const isPrompt: Check = prompt =>
  isObject(prompt) &&
  isString(prompt.name) &&
  isOptionalString(prompt.description) &&
  (prompt.arguments === undefined ||
    listOf(argument => isObject(argument) && isString(argument.name))(prompt.arguments));
const isResource: Check = resource => isObject(resource) && isString(resource.uri) && isString(resource.name);
const isTemplate: Check = template => isObject(template) && isString(template.uriTemplate) && isString(template.name);

export const COLD_SURFACE_FIELDS: Readonly<Record<string, Check>> = {
  prompts: listOf(isPrompt),
  resources: listOf(isResource),
  resourceTemplates: listOf(isTemplate),
  skills: listOf(skill => isObject(skill) && isString(skill.uri) && isString(skill.textPrint)),
};
export const COLD_SURFACE_REQUIRED = ['prompts', 'resources', 'resourceTemplates'] as const;

// Every field of schema.ts's ServerRecordSchema and ToolCacheFileSchema, by hand (zod costs the
// lane its head start), with the ones a record must have. A field this table does not know makes
// the lane hand over rather than guess, so a field added to the schema can never be let through
// unchecked; test/store/cold-read.test.ts checks the tables against the schema and runs every
// store fixture through both readers.
export const COLD_SERVER_FIELDS: Readonly<Record<string, Check>> = {
  name: isString,
  package: isString,
  version: isString,
  command: isString,
  args: isStringArray,
  env: isStringRecord,
  cwd: isString,
  mode: value => value === 'npm' || value === 'command',
  installedAt: isString,
  order: Number.isInteger,
  autoStart: isBoolean,
  source: isString,
  tools: isToolList,
  toolsUpdatedAt: isString,
  instructions: isString,
  pendingInstructions: isString,
  dataDir: isString,
  requiredEnv: isStringArray,
  allowScripts: value => isBoolean(value) || isStringArray(value),
  kind: value => value === 'npm' || value === 'remote' || value === 'pypi' || value === 'oci' || value === 'mcpb',
  remote: value =>
    isObject(value) &&
    isString(value.url) &&
    (value.headers === undefined || isStringRecord(value.headers)) &&
    (value.transport === undefined || value.transport === 'streamable-http' || value.transport === 'sse'),
  settings: value => hasOnly(value, COLD_SETTINGS_FIELDS, []),
  fingerprints: isStringRecord,
  surfacePrints: isStringRecord,
  toolNeeds: value =>
    isObject(value) &&
    Object.values(value).every(
      needs => Array.isArray(needs) && needs.every(need => need === 'elicitation' || need === 'sampling'),
    ),
};
export const COLD_SERVER_REQUIRED = ['name', 'command', 'args', 'env', 'mode', 'installedAt', 'order'] as const;

export const COLD_TOOL_FILE_FIELDS: Readonly<Record<string, Check>> = {
  server: isString,
  updatedAt: isString,
  tools: isToolList,
  issues: value => Array.isArray(value) && value.every(isToolIssue),
  surface: value => hasOnly(value, COLD_SURFACE_FIELDS, COLD_SURFACE_REQUIRED),
  approvedTools: isToolList,
  pendingSurface: listOf(entry => isObject(entry) && isString(entry.key) && isObject(entry.item)),
};
export const COLD_TOOL_FILE_REQUIRED = ['server', 'updatedAt', 'tools'] as const;

function hasOnly(value: unknown, fields: Readonly<Record<string, Check>>, required: readonly string[]): value is Json {
  if (!isObject(value) || !required.every(field => field in value)) return false;
  return Object.entries(value).every(([field, item]) => Object.hasOwn(fields, field) && fields[field]!(item));
}

const isServerRecord = (record: unknown, key: string): record is Json =>
  hasOnly(record, COLD_SERVER_FIELDS, COLD_SERVER_REQUIRED) && record.name === key;

function cacheOf(paths: HubPaths, record: Json): Pick<LeanServer, 'tools' | 'surface'> | undefined {
  const inline = (record.tools as Json[] | undefined) ?? [];
  if (record.toolsUpdatedAt === undefined) return { tools: inline };
  const file = readJson(paths.toolsFile(record.name as string));
  if (file === null) return { tools: inline };
  // A damaged cache file is a case the full hub handles (it falls back to the inline list).
  if (!hasOnly(file, COLD_TOOL_FILE_FIELDS, COLD_TOOL_FILE_REQUIRED) || file.server !== record.name) return undefined;
  const tools = file.tools as Json[];
  return file.surface === undefined ? { tools } : { tools, surface: file.surface as LeanServer['surface'] & object };
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
    const cache = cacheOf(paths, record);
    if (!cache) return undefined;
    servers.push({
      name: key,
      order: record.order as number,
      ...cache,
      ...(record.settings !== undefined && { settings: record.settings as LeanServer['settings'] & object }),
      ...(record.fingerprints !== undefined && { fingerprints: record.fingerprints as Record<string, string> }),
      ...(record.toolNeeds !== undefined && { toolNeeds: record.toolNeeds as LeanServer['toolNeeds'] & object }),
    });
  }
  return servers;
}

export interface LeanInstructions {
  readonly name: string;
  readonly order: number;
  readonly instructions?: string | undefined;
}

/**
 * Each server's name, order and instructions, for the instructions section both lanes send at
 * initialize (proxy/listing/instructions-section.ts), so they send the same text. Lenient on purpose: a
 * record the store would drop still gets its line; [] when db.json is missing or not JSON.
 */
export function leanInstructions(dbFile: string): LeanInstructions[] {
  const db = readJson(dbFile);
  if (!isObject(db) || !isObject(db.servers)) return [];
  const entries: LeanInstructions[] = [];
  for (const [name, record] of Object.entries(db.servers)) {
    if (!isObject(record)) continue;
    entries.push({
      name,
      order: typeof record.order === 'number' ? record.order : 0,
      instructions: isString(record.instructions) ? record.instructions : undefined,
    });
  }
  return entries;
}
