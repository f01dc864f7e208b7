// The only place hub's settings and their defaults are read: the environment over config.json.
import { z } from 'zod';
import { EXPOSURE_MODES, readFileConfig, type ExposureMode, type FileConfig } from './file.js';
import { defaultHubHome, hubPaths, type HubPaths } from '../paths.js';

export { EXPOSURE_MODES, type ExposureMode, type FileConfig } from './file.js';

export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';
// The tool naming when neither the environment nor config.json says (the hub's and each session's).
const DEFAULT_TOOL_NAMES = 'underscore';

export interface ExposureSettings {
  readonly mode: ExposureMode;
  readonly pin: readonly string[];
}

const exposureSettings = (envMode: ExposureMode | undefined, file: FileConfig): ExposureSettings => ({
  mode: envMode ?? file.exposure?.mode ?? 'auto',
  pin: file.exposure?.pin ?? [],
});

export interface HubConfig {
  readonly home: string;
  readonly paths: HubPaths;
  readonly registryUrl: string;
  /** Undefined means: ask npm once, lazily (see registry/sources/npm-registry.ts). */
  readonly npmRegistry: string | undefined;
  readonly toolNames: 'dotted' | 'underscore' | 'auto';
  readonly logLevel: string;
  readonly maxRunningProcesses: number;
  readonly logCapBytes: number;
  readonly resultCapBytes: number;
  readonly stopGraceMs: number;
  readonly callTimeoutMs: number;
  readonly idleStopMs: number;
  readonly searchTimeoutMs: number;
  /** withhold (default): not listed nor callable until approved; flag: listed with a warning; off: not checked. */
  readonly integrity: 'withhold' | 'flag' | 'off';
  readonly install: {
    readonly confirm: 'if-supported' | 'always' | 'never';
    readonly allowScripts: boolean;
    /** How long registry.install waits before it answers and goes on in the background. */
    readonly foregroundMs: number;
    /** How long one npm run (install, or rebuild of allowed scripts) may take before it is stopped. */
    readonly npmTimeoutMs: number;
  };
  readonly proxy: { readonly allowUnsolicitedRequests: boolean; readonly stableMs: number };
  /** MCP tasks: how long hub waits for a task it runs inside an ordinary tools/call (docs/servers.md "Tasks"). */
  readonly tasks: { readonly maxWaitMs: number };
  /** `mode` from HUB_EXPOSURE (the client's entry) over config.json; `pin` from config.json. */
  readonly exposure: ExposureSettings & {
    /** The same, with config.json read again now (a running hub follows edits of it). */
    readonly reload: () => ExposureSettings;
  };
  /** `hub serve`: how long a session without its client is kept, and how many are kept at once. */
  readonly serve: { readonly sessionIdleMs: number; readonly maxSessions: number };
  /** The shared hub (docs/protocol.md "One hub per user"): `enabled` is HUB_SHARED over config.json. */
  readonly sharedHub: { readonly enabled: boolean; readonly idleMs: number };
  /** The audit log (docs/audit.md): rotation, retention, and whether send_input's text is kept. */
  readonly audit: AuditSettings;
  /** Child servers run sandboxed unless a person set config.json sandbox.enabled: false (docs/sandbox.md). */
  readonly sandbox: { readonly enabled: boolean };
  /** Problems found in config.json, reported once the logger exists. */
  readonly warnings: readonly string[];
}

export interface AuditSettings {
  readonly enabled: boolean;
  readonly maxBytes: number;
  readonly maxAgeHours: number;
  readonly keepDays: number;
  readonly inputText: boolean;
}

const EnvSchema = z.object({
  HUB_HOME: z.string().min(1).optional(),
  HUB_REGISTRY_URL: z.string().url('HUB_REGISTRY_URL must be a URL such as https://registry.example').optional(),
  HUB_NPM_REGISTRY: z.string().url('HUB_NPM_REGISTRY must be a URL such as https://registry.npmjs.org/').optional(),
  HUB_TOOL_NAMES: z.enum(['dotted', 'underscore', 'auto']).optional(),
  HUB_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  HUB_EXPOSURE: z
    .enum(EXPOSURE_MODES, { message: 'HUB_EXPOSURE must be all, search or auto (docs/exposure.md)' })
    .optional(),
  HUB_SHARED: z.enum(['on', 'off'], { message: 'HUB_SHARED must be on or off (docs/protocol.md)' }).optional(),
});

type EnvVars = z.infer<typeof EnvSchema>;
type Settings = Omit<HubConfig, 'home' | 'paths' | 'warnings'>;

// Every setting from the environment over config.json over the defaults.
function settingsFrom(vars: EnvVars, file: FileConfig, configFile: string): Settings {
  return {
    registryUrl: (vars.HUB_REGISTRY_URL ?? file.registryUrl ?? DEFAULT_REGISTRY_URL).replace(/\/+$/, ''),
    npmRegistry: vars.HUB_NPM_REGISTRY ?? file.npmRegistry,
    toolNames: vars.HUB_TOOL_NAMES ?? file.toolNames ?? DEFAULT_TOOL_NAMES,
    logLevel: vars.HUB_LOG_LEVEL ?? file.logLevel ?? 'info',
    maxRunningProcesses: file.maxRunningProcesses ?? 64,
    logCapBytes: file.logCapBytes ?? 50 * 1024 * 1024,
    resultCapBytes: file.resultCapBytes ?? 256 * 1024,
    stopGraceMs: file.stopGraceMs ?? 5_000,
    callTimeoutMs: file.callTimeoutMs ?? 60_000,
    idleStopMs: file.idleStopMs ?? 10 * 60_000,
    searchTimeoutMs: file.searchTimeoutMs ?? 4_000,
    integrity: file.integrity ?? 'withhold',
    install: Object.freeze({
      confirm: file.install?.confirm ?? 'if-supported',
      allowScripts: file.install?.allowScripts ?? false,
      // Below the 60 s request timeout of SDK-based clients, with room for the answer.
      foregroundMs: file.install?.foregroundMs ?? 30_000,
      // A native module compiled from source (sqlite3 with no prebuilt binary) can take minutes.
      npmTimeoutMs: file.install?.npmTimeoutMs ?? 10 * 60_000,
    }),
    proxy: Object.freeze({
      allowUnsolicitedRequests: file.proxy?.allowUnsolicitedRequests ?? false,
      stableMs: file.proxy?.stableMs ?? 60_000,
    }),
    tasks: Object.freeze({ maxWaitMs: file.tasks?.maxWaitMs ?? 10 * 60_000 }),
    exposure: Object.freeze({
      ...exposureSettings(vars.HUB_EXPOSURE, file),
      reload: () => exposureSettings(vars.HUB_EXPOSURE, readFileConfig(configFile).file),
    }),
    serve: Object.freeze({
      sessionIdleMs: file.serve?.sessionIdleMs ?? 10 * 60_000,
      maxSessions: file.serve?.maxSessions ?? 64,
    }),
    audit: Object.freeze({
      enabled: file.audit?.enabled ?? true,
      maxBytes: file.audit?.maxBytes ?? 20 * 1024 * 1024,
      maxAgeHours: file.audit?.maxAgeHours ?? 24,
      keepDays: file.audit?.keepDays ?? 30,
      inputText: file.audit?.inputText ?? false,
    }),
    sandbox: Object.freeze({ enabled: file.sandbox?.enabled ?? true }),
    sharedHub: Object.freeze({
      enabled: vars.HUB_SHARED === undefined ? (file.sharedHub?.enabled ?? true) : vars.HUB_SHARED === 'on',
      idleMs: file.sharedHub?.idleMs ?? 10 * 60_000,
    }),
  };
}

/** What reading config.json again did: the settings that changed, or why the last good ones stay. */
export type ConfigReload = { readonly changed: readonly string[] } | { readonly problem: string };

// The live configs (loadConfig's) and how each reads config.json again.
const reloaders = new WeakMap<HubConfig, () => ConfigReload>();

/**
 * Reads config.json again into a config made by loadConfig (and every sessionConfig over it):
 * its settings change in place, environment variables still win. A file that does not parse or
 * validate changes nothing and says why (core/config/watch.ts logs it).
 */
export function reloadConfig(config: HubConfig): ConfigReload {
  return reloaders.get(config)?.() ?? { changed: [] };
}

const changedKeys = (before: Settings, after: Settings): string[] =>
  (Object.keys(after) as (keyof Settings)[]).flatMap(key => {
    const a = before[key];
    const b = after[key];
    if (typeof b !== 'object' || b === null || typeof a !== 'object' || a === null) return a === b ? [] : [key];
    return Object.keys(b)
      .filter(
        sub =>
          typeof (b as Record<string, unknown>)[sub] !== 'function' &&
          JSON.stringify((a as Record<string, unknown>)[sub]) !== JSON.stringify((b as Record<string, unknown>)[sub]),
      )
      .map(sub => `${key}.${sub}`);
  });

// All of hub's own settings and their defaults in one place (execa's addDefaultOptions). Other
// reads of process.env are not hub settings: the environment handed on to children and npm, npm's
// own npm_config_* settings, and HOME/PATH for client files and commands. The settings are
// getters over the last good config.json: a running hub that reads config.json again
// (reloadConfig) sees the new values wherever it reads them at use time.
export function loadConfig(env: NodeJS.ProcessEnv = process.env): HubConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid environment variable ${String(issue?.path[0])}: ${issue?.message ?? 'invalid'}`);
  }
  const vars = parsed.data;
  const home = vars.HUB_HOME ?? defaultHubHome();
  const paths = hubPaths(home);
  const first = readFileConfig(paths.configFile);
  let current = settingsFrom(vars, first.file, paths.configFile);
  const config = { home, paths, warnings: first.problem ? [`Ignoring ${first.problem}`] : [] } as unknown as HubConfig;
  for (const key of Object.keys(current) as (keyof Settings)[])
    Object.defineProperty(config, key, { get: () => current[key], enumerable: true });
  Object.freeze(config);
  reloaders.set(config, () => {
    const read = readFileConfig(paths.configFile);
    if (read.problem) return { problem: read.problem };
    const next = settingsFrom(vars, read.file, paths.configFile);
    const changed = changedKeys(current, next);
    current = next;
    return { changed };
  });
  return config;
}

/**
 * One client session's settings on a shared hub (issue 15): the naming mode and exposure come
 * from that client's entry environment over config.json, never from the hub process's own
 * environment: a shared hub inherits the environment of whichever entry started it, so a
 * session without HUB_EXPOSURE would otherwise get that first client's mode (issue 14).
 * HUB_HOME and its paths stay the hub's. A session with no environment of its own (`hub serve`,
 * an in-process hub) keeps the hub's settings as they are.
 */
export function sessionConfig(
  base: HubConfig,
  env: Readonly<Record<string, string | undefined>> | undefined,
): HubConfig {
  if (env === undefined) return base;
  const parsed = EnvSchema.pick({ HUB_TOOL_NAMES: true, HUB_EXPOSURE: true }).safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid environment variable ${String(issue?.path[0])}: ${issue?.message ?? 'invalid'}`);
  }
  const { HUB_TOOL_NAMES: toolNames, HUB_EXPOSURE: exposure } = parsed.data;
  const file = (): FileConfig => readFileConfig(base.paths.configFile).file;
  const now = file();
  // The other settings stay the base's getters, so a reload of config.json reaches this session.
  const { toolNames: _names, exposure: _exposure, ...shared } = Object.getOwnPropertyDescriptors(base);
  const session = Object.defineProperties({}, shared) as HubConfig;
  Object.defineProperties(session, {
    toolNames: { value: toolNames ?? now.toolNames ?? DEFAULT_TOOL_NAMES, enumerable: true },
    exposure: {
      value: { ...exposureSettings(exposure, now), reload: () => exposureSettings(exposure, file()) },
      enumerable: true,
    },
  });
  return Object.freeze(session);
}
