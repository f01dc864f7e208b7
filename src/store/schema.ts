// The one description of db.json: zod schemas of processes, servers and their cached lists.
import { z } from 'zod';

// The one description of db.json. Types are inferred from it, never declared beside it, and named
// as in the rest of src/: FooSchema, type Foo = z.infer<typeof FooSchema>.
export const STORE_VERSION = 1;

export const ProcessStatusSchema = z.enum(['running', 'exited', 'killed', 'failed']);
export type ProcessStatus = z.infer<typeof ProcessStatusSchema>;

export const ProcessRecordSchema = z.object({
  id: z.string(),
  name: z.string().optional(),
  command: z.string(),
  args: z.array(z.string()).optional(),
  cwd: z.string(),
  envKeys: z.array(z.string()),
  tags: z.array(z.string()),
  ports: z.array(z.number().int()),
  pid: z.number().int(),
  status: ProcessStatusSchema,
  startedAt: z.string(),
  endedAt: z.string().optional(),
  exitCode: z.number().int().nullable().optional(),
  signal: z.string().optional(),
  logFile: z.string(),
  error: z.string().optional(),
  // Identity of the keeper (group leader), so a recycled pid is never taken for ours.
  pgid: z.number().int().optional(),
  startTicks: z.number().optional(),
  bootId: z.string().optional(),
  killRequestedAt: z.string().optional(),
  // Set while the record is written but its keeper not yet: the hub starting it (pid + start
  // ticks). Written before the spawn, so a hub killed mid-start never leaves a process without a record.
  startingBy: z.object({ pid: z.number().int(), startTicks: z.number() }).optional(),
  /**
   * The start_process call that started it (`call`: its client's entry, pid and start time, and
   * its JSON-RPC id) and the hub that ran it (pid and start time). The entry sends a call in
   * flight when the shared hub died to the next hub, which returns this process rather than start
   * a second copy (process/manager.ts).
   */
  startCall: z.object({ call: z.string(), hub: z.string() }).optional(),
  /** When a live keeper with no (or an ended) record was found and recorded again. */
  recoveredAt: z.string().optional(),
  /** Run in a pseudo-terminal of this size (start_process tty: true; resize changes it). */
  tty: z.object({ cols: z.number().int(), rows: z.number().int() }).optional(),
  /** The keeper's restart policy: on-failure or always, at most max restarts in a row. */
  restart: z.object({ policy: z.enum(['no', 'on-failure', 'always']), max: z.number().int() }).optional(),
  /** Runs after the first (the keeper's and restart_process's). */
  restarts: z.number().int().optional(),
  /** How start_process waited for it to be ready (wait_for): restart_process waits the same. */
  ready: z
    .object({ port: z.number().int().optional(), pattern: z.string().optional(), timeoutMs: z.number().int() })
    .optional(),
  /**
   * start_process sandbox (process/lifecycle/sandbox.ts): it writes only its project folder and
   * the temporary folders; network host (this machine's) or none. Kept, so a restart keeps it.
   */
  sandbox: z.object({ project: z.string(), network: z.enum(['host', 'none']) }).optional(),
});
export type ProcessRecord = z.infer<typeof ProcessRecordSchema>;

// A tool as a child server listed it: kept verbatim so it can be listed with no child running.
export const CachedToolSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  inputSchema: z.looseObject({ type: z.literal('object') }),
});
export type CachedTool = z.infer<typeof CachedToolSchema>;

/**
 * What a person set for one server (registry.configure, `hub servers configure`): every hub sharing
 * HUB_HOME applies it when db.json changes (proxy/listing/tool-filter.ts).
 */
export const ServerSettingsSchema = z.object({
  /** false: the server is not started and nothing of it is listed. */
  enabled: z.boolean().optional(),
  /** true: each client session of a shared hub gets its own child (state that must not be shared, e.g. a browser). */
  perSession: z.boolean().optional(),
  /** Only the server's own tool names matching one of these (names, or globs with * and ?) are listed. */
  allow: z.array(z.string()).optional(),
  /** Tool names (or globs) never listed nor callable; deny wins over allow. */
  deny: z.array(z.string()).optional(),
  /** The child's sandbox (docs/sandbox.md): what it may read, write and reach beyond the defaults. */
  sandbox: z
    .object({
      /** false: run unsandboxed (a person's choice). */
      enabled: z.boolean().optional(),
      /** Absolute paths it may read. */
      read: z.array(z.string()).optional(),
      /** Absolute paths it may write; "roots": the session's roots. */
      write: z.array(z.string()).optional(),
      /** all (default): the network but not this machine's services; host: this machine's network, localhost included; none: no network at all; a list: only those hosts (through hub's proxy). */
      network: z.union([z.enum(['all', 'none', 'host']), z.array(z.string())]).optional(),
    })
    .optional(),
});
export type ServerSettings = z.infer<typeof ServerSettingsSchema>;

export const ServerRecordSchema = z.object({
  name: z.string(),
  /** npm package name, when installed from npm. */
  package: z.string().optional(),
  version: z.string().optional(),
  /** What is run: `node <bin>` for npm installs, or the registered command. */
  command: z.string(),
  args: z.array(z.string()),
  env: z.record(z.string(), z.string()),
  cwd: z.string().optional(),
  mode: z.enum(['npm', 'command']),
  installedAt: z.string(),
  /** Install order, for deterministic tools/list order. */
  order: z.number().int(),
  autoStart: z.boolean().default(false),
  source: z.string().optional(),
  /**
   * Inline tool cache of stores written before tools/<name>.json existed: read when no cache
   * file exists, dropped on the next cache write, never written non-empty again.
   */
  tools: z.array(CachedToolSchema).optional(),
  /** When tools/<name>.json was last written: bumping it is what tells other hubs to re-read it. */
  toolsUpdatedAt: z.string().optional(),
  /** The server's approved `instructions` (what it sent at install, or a person approved since; capped): the ones used. */
  instructions: z.string().optional(),
  /** Instructions the server sent since that differ from the approved ones: withheld until a person approves them. */
  pendingInstructions: z.string().optional(),
  /** The server's own data folder (HUB_HOME/data/<name>): outside its package, kept by upgrades and uninstall. */
  dataDir: z.string().optional(),
  /** Env vars the server cannot run without (from the catalog at install): it is not started while one is unset. */
  requiredEnv: z.array(z.string()).optional(),
  /** registry.install allowScripts: install scripts allowed for every package (true) or the named ones; reused by upgrades. */
  allowScripts: z.union([z.boolean(), z.array(z.string())]).optional(),
  /** What kind of server the record runs (absent: a local stdio server, as before kinds existed). */
  kind: z.enum(['npm', 'remote', 'pypi', 'oci', 'mcpb']).optional(),
  /** A remote server (kind "remote"): where it listens; its command is the same URL, for display. */
  remote: z
    .object({
      url: z.string(),
      /** Sent with every request; secrets like env (never shown); `${VAR}` reads env or hub's environment. */
      headers: z.record(z.string(), z.string()).optional(),
      /** Absent: Streamable HTTP, falling back to HTTP+SSE on a 4xx (the spec's backwards compatibility). */
      transport: z.enum(['streamable-http', 'sse']).optional(),
    })
    .optional(),
  settings: ServerSettingsSchema.optional(),
  /** Tool name → sha256 of the approved definition (proxy/listing/tool-integrity.ts); taken when first listed, changed only by approval. */
  fingerprints: z.record(z.string(), z.string()).optional(),
  /** "prompt:<name>", "resource:<uri>", "template:<uriTemplate>" → sha256 of its approved text (proxy/listing/surface-integrity.ts). */
  surfacePrints: z.record(z.string(), z.string()).optional(),
  /** Tool name → the client capabilities it was seen to need (proxy/listing/tool-needs.ts): learned from the child's requests during its calls. */
  toolNeeds: z.record(z.string(), z.array(z.enum(['elicitation', 'sampling']))).optional(),
});
export type ServerRecord = z.infer<typeof ServerRecordSchema>;

/** A record with its cached tools (and surface) attached (in memory only; they live in tools/<name>.json). */
export type ServerWithTools = ServerRecord & { tools: CachedTool[]; surface?: CachedSurface };

/** What hub left out of or cut in a child's tools/list (proxy/child/tool-intake.ts), shown by registry.list { server }. */
export const ToolIssueSchema = z.object({
  tool: z.string(),
  action: z.enum(['skipped', 'trimmed']),
  reason: z.string(),
});
export type ToolIssue = z.infer<typeof ToolIssueSchema>;

// What else a child offers, kept verbatim like its tools so prompts/list and resources/list are
// answered with no child running (proxy/child/surface-intake.ts bounds them).
export const CachedPromptSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  arguments: z.array(z.looseObject({ name: z.string() })).optional(),
});
export type CachedPrompt = z.infer<typeof CachedPromptSchema>;

export const CachedResourceSchema = z.looseObject({ uri: z.string(), name: z.string() });
export type CachedResource = z.infer<typeof CachedResourceSchema>;

export const CachedResourceTemplateSchema = z.looseObject({ uriTemplate: z.string(), name: z.string() });
export type CachedResourceTemplate = z.infer<typeof CachedResourceTemplateSchema>;

/**
 * A child's skill (SEP-2640) as hub lists it (proxy/child/skills-intake.ts): the entry under hub's
 * name and URIs, with where it came from (sourceRoot) and the fingerprint of the child's SKILL.md.
 */
export const CachedSkillSchema = z.looseObject({
  uri: z.string(),
  frontmatter: z.looseObject({ name: z.string(), description: z.string() }),
  resources: z.union([
    z.array(z.looseObject({ uri: z.string(), digest: z.string(), size: z.number() })),
    z.literal('dynamic'),
  ]),
  sourceRoot: z.string(),
  textPrint: z.string(),
});
export type CachedSkill = z.infer<typeof CachedSkillSchema>;

/** A child's prompts, resources and resource templates as last listed (each complete, every page), and its skills if it offers them. */
export const CachedSurfaceSchema = z.object({
  prompts: z.array(CachedPromptSchema),
  resources: z.array(CachedResourceSchema),
  resourceTemplates: z.array(CachedResourceTemplateSchema),
  skills: z.array(CachedSkillSchema).optional(),
});
export type CachedSurface = z.infer<typeof CachedSurfaceSchema>;

export const emptySurface = (): CachedSurface => ({ prompts: [], resources: [], resourceTemplates: [] });

// The cache file of one server: HUB_HOME/tools/<name>.json (its tools, and the rest it offers).
export const ToolCacheFileSchema = z.object({
  server: z.string(),
  updatedAt: z.string(),
  tools: z.array(CachedToolSchema),
  issues: z.array(ToolIssueSchema).optional(),
  surface: CachedSurfaceSchema.optional(),
  /** The approved definitions of tools the server now lists changed (registry.list shows old against new). */
  approvedTools: z.array(CachedToolSchema).optional(),
  /** Prompts, resources and templates whose text changed since approved, as the child sent them (surface lists them with the approved text). */
  pendingSurface: z.array(z.object({ key: z.string(), item: z.looseObject({}) })).optional(),
});
export type ToolCacheFile = z.infer<typeof ToolCacheFileSchema>;

/**
 * What a person decided about a server, kept when it is uninstalled (registry/decisions/kept-decisions.ts):
 * a later install under its name gets them back, so the agent cannot undo them by reinstalling.
 * Only the person drops them (`hub servers forget`, `hub uninstall --purge`).
 */
export const KeptDecisionsSchema = z.object({
  /** What was installed under the name ("package x", "command y", "url z"). */
  source: z.string(),
  keptAt: z.string(),
  settings: ServerSettingsSchema.optional(),
  fingerprints: z.record(z.string(), z.string()).optional(),
  surfacePrints: z.record(z.string(), z.string()).optional(),
  /** The approved instructions. */
  instructions: z.string().optional(),
  /** Tools withheld (changed since approval) when it was uninstalled. */
  withheld: z.array(z.string()).optional(),
});
export type KeptDecisions = z.infer<typeof KeptDecisionsSchema>;

export const StoreDataSchema = z.object({
  version: z.literal(STORE_VERSION),
  servers: z.record(z.string(), ServerRecordSchema),
  processes: z.record(z.string(), ProcessRecordSchema),
  /** port → epoch ms until which it is not handed out again (get_free_port, across hubs). */
  reservations: z.record(z.string(), z.number()).default({}),
  /** Server name → the person's decisions about a server uninstalled since (KeptDecisionsSchema). */
  kept: z.record(z.string(), KeptDecisionsSchema).default({}),
});
export type StoreData = z.infer<typeof StoreDataSchema>;

export const emptyStore = (): StoreData => ({
  version: STORE_VERSION,
  servers: {},
  processes: {},
  reservations: {},
  kept: {},
});
