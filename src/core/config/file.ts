// config.json: what a person may put in it (the schema) and reading it, bounded, with every
// problem named by file and field. core/config/config.ts turns it into settings.
import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';

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
    // A proxied tool whose definition differs from the approved one (docs/security.md "Tool integrity").
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
        // A child up this long counts as stable (crash-loop guard, docs/servers.md "Running proxied servers").
        stableMs: z.number().int().min(1000),
      })
      .partial(),
    tasks: z
      .object({
        // How long an ordinary tools/call waits for a task hub runs for a client without tasks.
        maxWaitMs: z.number().int().min(1000),
      })
      .partial(),
    // Which proxied tools each client session lists (docs/exposure.md "Many servers, few tools").
    exposure: ExposureConfigSchema.partial(),
    // One hub process per user shared by every stdio entry (docs/protocol.md "One hub per user").
    // `hub serve`'s HTTP sessions (docs/clients.md "Clients that connect by URL").
    serve: z
      .object({
        // A session with no request in progress and no open stream for this long has lost its client.
        sessionIdleMs: z.number().int().min(1_000),
        // Sessions at once; a new client beyond it ends the longest-idle one.
        maxSessions: z.number().int().min(1).max(4096),
      })
      .partial(),
    // The audit log under HUB_HOME/audit (docs/audit.md).
    audit: z
      .object({
        enabled: z.boolean(),
        // The current file is rotated once it is this big, or this old.
        maxBytes: z
          .number()
          .int()
          .min(64 * 1024),
        maxAgeHours: z.number().min(1),
        // Rotated files older than this are deleted.
        keepDays: z.number().min(1),
        // send_input's text in the log (off: its keys and length only).
        inputText: z.boolean(),
      })
      .partial(),
    // Child servers' sandbox (docs/sandbox.md): false runs every child unsandboxed.
    sandbox: z.object({ enabled: z.boolean() }).partial(),
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

// Settings fit in a few KB: a bigger file is a mistake, never read whole (a running hub reads it on every save).
const CONFIG_MAX_BYTES = 1024 * 1024;
const MAX_ISSUES = 5;

/** config.json as read now: its settings, or what is wrong with it (the file and each field). */
export function readFileConfig(file: string): { file: FileConfig; problem?: string } {
  let text: string;
  try {
    const size = statSync(file).size;
    if (size > CONFIG_MAX_BYTES)
      return {
        file: {},
        problem: `${file}: ${size} bytes, over the ${CONFIG_MAX_BYTES} hub reads; nothing in it was used`,
      };
    text = readFileSync(file, 'utf8');
  } catch {
    return { file: {} };
  }
  try {
    const parsed = FileConfigSchema.safeParse(JSON.parse(text));
    if (parsed.success) return { file: parsed.data };
    const { issues } = parsed.error;
    const named = issues.slice(0, MAX_ISSUES).map(issue => `${issue.path.join('.')}: ${issue.message}`);
    const more = issues.length > MAX_ISSUES ? ` (and ${issues.length - MAX_ISSUES} more)` : '';
    return { file: {}, problem: `${file}: ${named.join('; ')}${more}` };
  } catch (error) {
    return { file: {}, problem: `${file}: not valid JSON (${(error as Error).message})` };
  }
}
