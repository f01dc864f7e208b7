import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { defaultHubHome, hubPaths, type HubPaths } from './paths.js';

export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';
// The tool naming when neither the environment nor config.json says (the hub's and each session's).
const DEFAULT_TOOL_NAMES = 'underscore';

export const EXPOSURE_MODES = ['all', 'search', 'auto'] as const;
export type ExposureMode = (typeof EXPOSURE_MODES)[number];

const ExposureConfigSchema = z.object({
  mode: z.enum(EXPOSURE_MODES),
  // Server names, or exposed tool names (`github.create_issue` or `github_create_issue`): always listed.
  pin: z.array(z.string().min(1).max(200)).max(500),
});

// Settings a person may put in ~/.hub/config.json; environment variables win over the file.
const FileConfigSchema = z
  .object({
    registryUrl: z.string().url(),
    npmRegistry: z.string().url(),
    toolNames: z.enum(['dotted', 'underscore', 'auto']),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    maxRunningProcesses: z.number().int().min(1).max(4096),
    logCapBytes: z
      .number()
      .int()
      .min(64 * 1024),
    resultCapBytes: z
      .number()
      .int()
      .min(16 * 1024),
    stopGraceMs: z.number().int().min(0).max(120_000),
    callTimeoutMs: z.number().int().min(100),
    idleStopMs: z.number().int().min(0),
    searchTimeoutMs: z.number().int().min(100),
    // A proxied tool whose definition differs from the approved one (README "Tool integrity").
    integrity: z.enum(['withhold', 'flag', 'off']),
    install: z
      .object({
        confirm: z.enum(['if-supported', 'always', 'never']),
        allowScripts: z.boolean(),
        foregroundMs: z.number().int().min(0).max(600_000),
        npmTimeoutMs: z.number().int().min(1_000),
      })
      .partial(),
    proxy: z
      .object({
        // A child's elicitation or sampling request with none of its tool calls in progress.
        allowUnsolicitedRequests: z.boolean(),
        // A child up this long counts as stable (crash-loop guard, README "Running proxied servers").
        stableMs: z.number().int().min(1000),
      })
      .partial(),
    tasks: z
      .object({
        // How long an ordinary tools/call waits for a task hub runs for a client without tasks.
        maxWaitMs: z.number().int().min(1000),
      })
      .partial(),
    // Which proxied tools each client session lists (README "Many servers, few tools").
    exposure: ExposureConfigSchema.partial(),
    // `hub serve`'s HTTP sessions (README "Clients that connect by URL").
    serve: z
      .object({
        // A session with no request in progress and no open stream for this long has lost its client.
        sessionIdleMs: z.number().int().min(1_000),
        // Sessions at once; a new client beyond it ends the longest-idle one.
        maxSessions: z.number().int().min(1).max(4096),
      })
      .partial(),
    // One hub process per user shared by every stdio entry (README "One hub per user").
    sharedHub: z
      .object({
        enabled: z.boolean(),
        // How long the shared hub stays up with no session attached before it exits.
        idleMs: z.number().int().min(0),
      })
      .partial(),
  })
  .partial();

export type FileConfig = z.infer<typeof FileConfigSchema>;

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
  /** Undefined means: ask npm once, lazily (see registry/npm-registry.ts). */
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
  /** MCP tasks: how long hub waits for a task it runs inside an ordinary tools/call (README "Tasks"). */
  readonly tasks: { readonly maxWaitMs: number };
  /** `mode` from HUB_EXPOSURE (the client's entry) over config.json; `pin` from config.json. */
  readonly exposure: ExposureSettings & {
    /** The same, with config.json read again now (a running hub follows edits of it). */
    readonly reload: () => ExposureSettings;
  };
  /** `hub serve`: how long a session without its client is kept, and how many are kept at once. */
  readonly serve: { readonly sessionIdleMs: number; readonly maxSessions: number };
  /** The shared hub (README "One hub per user"): `enabled` is HUB_SHARED over config.json. */
  readonly sharedHub: { readonly enabled: boolean; readonly idleMs: number };
  /** Problems found in config.json, reported once the logger exists. */
  readonly warnings: readonly string[];
}

const EnvSchema = z.object({
  HUB_HOME: z.string().min(1).optional(),
  HUB_REGISTRY_URL: z.string().url('HUB_REGISTRY_URL must be a URL such as https://registry.example').optional(),
  HUB_NPM_REGISTRY: z.string().url('HUB_NPM_REGISTRY must be a URL such as https://registry.npmjs.org/').optional(),
  HUB_TOOL_NAMES: z.enum(['dotted', 'underscore', 'auto']).optional(),
  HUB_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  HUB_EXPOSURE: z
    .enum(EXPOSURE_MODES, { message: 'HUB_EXPOSURE must be all, search or auto (README "Many servers, few tools")' })
    .optional(),
  HUB_SHARED: z.enum(['on', 'off'], { message: 'HUB_SHARED must be on or off (README "One hub per user")' }).optional(),
});

function readFileConfig(file: string, warnings: string[]): FileConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  try {
    const parsed = FileConfigSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
    warnings.push(`Ignoring ${file}: ${parsed.error.issues.map(i => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  } catch (error) {
    warnings.push(`Ignoring ${file}: not valid JSON (${(error as Error).message})`);
  }
  return {};
}

// All of hub's own settings and their defaults in one place (execa's addDefaultOptions). Other
// reads of process.env are not hub settings: the environment handed on to children and npm, npm's
// own npm_config_* settings, and HOME/PATH for client files and commands.
export function loadConfig(env: NodeJS.ProcessEnv = process.env): HubConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid environment variable ${String(issue?.path[0])}: ${issue?.message ?? 'invalid'}`);
  }
  const vars = parsed.data;
  const home = vars.HUB_HOME ?? defaultHubHome();
  const paths = hubPaths(home);
  const warnings: string[] = [];
  const file = readFileConfig(paths.configFile, warnings);
  return Object.freeze({
    home,
    paths,
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
    install: {
      confirm: file.install?.confirm ?? 'if-supported',
      allowScripts: file.install?.allowScripts ?? false,
      // Below the 60 s request timeout of SDK-based clients, with room for the answer.
      foregroundMs: file.install?.foregroundMs ?? 30_000,
      // A native module compiled from source (sqlite3 with no prebuilt binary) can take minutes.
      npmTimeoutMs: file.install?.npmTimeoutMs ?? 10 * 60_000,
    },
    proxy: {
      allowUnsolicitedRequests: file.proxy?.allowUnsolicitedRequests ?? false,
      stableMs: file.proxy?.stableMs ?? 60_000,
    },
    tasks: { maxWaitMs: file.tasks?.maxWaitMs ?? 10 * 60_000 },
    exposure: {
      ...exposureSettings(vars.HUB_EXPOSURE, file),
      reload: () => exposureSettings(vars.HUB_EXPOSURE, readFileConfig(paths.configFile, [])),
    },
    serve: {
      sessionIdleMs: file.serve?.sessionIdleMs ?? 10 * 60_000,
      maxSessions: file.serve?.maxSessions ?? 64,
    },
    sharedHub: {
      enabled: vars.HUB_SHARED === undefined ? (file.sharedHub?.enabled ?? true) : vars.HUB_SHARED === 'on',
      idleMs: file.sharedHub?.idleMs ?? 10 * 60_000,
    },
    warnings,
  });
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
  const file = (): FileConfig => readFileConfig(base.paths.configFile, []);
  const now = file();
  return Object.freeze({
    ...base,
    toolNames: toolNames ?? now.toolNames ?? DEFAULT_TOOL_NAMES,
    exposure: { ...exposureSettings(exposure, now), reload: () => exposureSettings(exposure, file()) },
  });
}
