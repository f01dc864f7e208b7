// The input and output schemas of the process tools (processes.ts): the only source of the
// listed JSON Schemas, the validation and the TypeScript types.
import { isIP } from 'node:net';
import { z } from 'zod';
import {
  EnvKeySchema,
  KillSignalNameSchema,
  PortNumberSchema,
  ProcessNameSchema,
  ProcessReferenceSchema,
  RegexTextSchema,
  WaitTimeoutDefaultSchema,
  waitForSchema,
} from '../process/tool-inputs.js';
import { ProcessViewSchema } from '../process/view.js';
import { DEFAULT_COLS, DEFAULT_ROWS } from '../process/keeper/pty.js';
import { PROCESS_SANDBOXES } from '../process/lifecycle/sandbox.js';
import { ProcessStatusSchema } from '../store/schema.js';

export const StartInputSchema = z.strictObject({
  command: z.string().min(1).describe('Shell line ("npm run dev"); with args, run without a shell'),
  args: z.array(z.string()).max(256).optional().describe('Arguments (no shell)'),
  cwd: z.string().min(1).optional().describe("Working directory (default: hub's)"),
  env: z.record(EnvKeySchema, z.string()).optional().describe('Added to its env; never shown back'),
  name: ProcessNameSchema.optional().describe('Unique name, usable as the id'),
  tags: z.array(z.string().min(1).max(64)).max(32).optional().describe('Labels for list_processes'),
  ports: z.array(PortNumberSchema).max(32).optional().describe('Ports it will use (get_free_port skips them)'),
  // Described by the tool's description (hub's listing has a byte budget).
  wait_for: waitForSchema(WaitTimeoutDefaultSchema).optional(),
  tty: z.boolean().default(false).describe('Run in a cols×rows terminal (REPLs, TUIs)'),
  cols: z.number().int().min(10).max(500).default(DEFAULT_COLS),
  rows: z.number().int().min(3).max(200).default(DEFAULT_ROWS),
  restart: z
    .enum(['no', 'on-failure', 'always'])
    .default('no')
    .describe('Rerun when it ends (backoff), even with no hub'),
  max_restarts: z.number().int().min(0).max(1_000).default(5).describe('Restarts in a row before failed'),
  watch: z.array(z.string().min(1).max(200)).max(8).optional().describe('Push crash|exit|ready|regex'),
  sandbox: z.enum(PROCESS_SANDBOXES).optional().describe('Writes only its project, /tmp; no secrets'),
});

export const StartOutputSchema = z.object({
  process: ProcessViewSchema,
  ready: z.boolean().optional().describe('With wait_for: whether the readiness condition was met'),
  reason: z.enum(['port', 'pattern', 'exited', 'timeout']).optional(),
  waited_ms: z.number().int().optional(),
  log_tail: z.array(z.string()).describe('The last lines of its log'),
  already_started: z
    .boolean()
    .optional()
    .describe('This call had started it already, on a hub that restarted before answering: no second copy'),
  next: z.string().describe('What to call next, with the ids filled in'),
});

export const ListInputSchema = z.strictObject({
  status: ProcessStatusSchema.optional().describe('Only this status'),
  tag: z.string().min(1).max(64).optional().describe('Only this tag'),
  name: ProcessNameSchema.optional().describe('Only this name'),
});

export const ListOutputSchema = z.object({
  processes: z.array(ProcessViewSchema),
  total: z.number().int(),
  running: z.number().int(),
  next: z.string().describe('What to call next, with the ids filled in'),
});

export const LogsInputSchema = z.strictObject({
  id: ProcessReferenceSchema,
  lines: z.number().int().min(1).max(2_000).default(100).describe('The last lines, or with cursor the next ones'),
  cursor: z.number().int().min(0).optional().describe('next_cursor of an earlier call: only newer output'),
  grep: RegexTextSchema.optional().describe('Only lines matching (RE2 regex)'),
  raw: z.boolean().default(false).describe('Keep ANSI escape codes'),
});

export const LogsOutputSchema = z.object({
  id: z.string(),
  status: ProcessStatusSchema,
  lines: z.number().int().describe('Lines returned (the result text is the log itself)'),
  next_cursor: z.number().int().describe('Pass as cursor to get only newer output'),
  truncated: z.boolean().describe('More output exists than was returned (older without cursor, newer with it)'),
  cursor_reset: z
    .boolean()
    .describe('The cursor pointed at output since cut by the log cap; reading restarted at the oldest kept line'),
  dropped_bytes: z.number().int().describe('Bytes of the oldest output cut by the log size cap so far'),
  log_file: z.string(),
  next: z.string().describe('What to call next, with the ids filled in'),
});

export const KillInputSchema = z.strictObject({
  id: ProcessReferenceSchema,
  signal: KillSignalNameSchema.default('SIGTERM').describe('First signal to the process group'),
  grace_ms: z.number().int().min(0).max(120_000).optional().describe('Then SIGKILL after this (default 5000)'),
  remove: z.boolean().default(false).describe('Also delete its record and log'),
});

export const KillOutputSchema = z.object({
  process: ProcessViewSchema,
  already_ended: z.boolean(),
  signal_sent: KillSignalNameSchema.optional(),
  escalated: z.boolean().describe('SIGKILL was needed after grace_ms'),
  stray_members: z.number().int().describe('Leftover members of an already-ended process group that were stopped'),
  escaped_members: z
    .number()
    .int()
    .describe(
      'Process groups that had left its group and were stopped too: setpgid within its session, or setsid carrying its HUB_PROCESS_ID',
    ),
  removed: z.boolean(),
  waited_ms: z.number().int(),
  warning: z
    .string()
    .optional()
    .describe(
      'Set when the process was stopped but its record could not be written yet (store not writable; hub retries), or some of its processes could not be stopped',
    ),
});

// Plain JSON Schema types only (no anyOf): LangChain's converter drops union types, and the
// Inspector CLI sends `preferred=5173` as a string unless the type says number (or as a bare
// number for an array): both, and one port given alone, are taken as the list they mean.
const digitsToNumber = (value: unknown): unknown =>
  typeof value === 'string' && /^\d{1,5}$/.test(value.trim()) ? Number(value) : value;
const PortListSchema = z.preprocess(value => {
  const numeric = digitsToNumber(value);
  return Array.isArray(numeric) ? numeric.map(digitsToNumber) : typeof numeric === 'number' ? [numeric] : numeric;
}, z.array(PortNumberSchema).min(1).max(64));

export const PortInputSchema = z.strictObject({
  preferred: PortListSchema.optional().describe('Ports to use when free, in order (or one port)'),
  host: z
    .string()
    .refine(value => isIP(value) !== 0, 'must be an IP address such as 127.0.0.1 or ::1')
    .optional()
    .describe('Check only this IP (default: all)'),
});

export const PortOutputSchema = z.object({
  port: z.number().int(),
  host: z.string().optional(),
  reserved_until: z.string().describe('Not handed out again by any hub on this HUB_HOME before this time'),
  preferred_granted: z.boolean(),
  next: z.string().describe('What to call next, with the ids filled in'),
});
