// What tools and the CLI show of a process record: no internal fields, env keys without values.
import { z } from 'zod';
import { ProcessStatusSchema, type ProcessRecord } from '../store/schema.js';

// What tools and the CLI show of a process record (docs/configuration.md "Store layout"): no internal fields
// (start ticks, boot id, kill bookkeeping) and never env values, only their keys.
export const ProcessViewSchema = z.object({
  id: z.string().describe('Short id; use it (or name) with get_process_logs and kill_process'),
  name: z.string().optional(),
  command: z.string(),
  args: z.array(z.string()).optional().describe('Present when the command was run directly (no shell)'),
  cwd: z.string(),
  envKeys: z.array(z.string()).describe('Names of the env variables given at start (values are never shown)'),
  tags: z.array(z.string()),
  ports: z.array(z.number().int()),
  pid: z.number().int().describe('Process group id (the keeper that runs the command)'),
  status: ProcessStatusSchema,
  startedAt: z.string(),
  endedAt: z.string().optional(),
  exitCode: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe('null when the process was killed before its exit could be recorded'),
  signal: z.string().optional(),
  logFile: z.string(),
  error: z.string().optional(),
  tty: z.object({ cols: z.number().int(), rows: z.number().int() }).optional(),
  restart: z.enum(['no', 'on-failure', 'always']).optional(),
  restarts: z.number().int().optional().describe('Runs after the first'),
  sandbox: z
    .object({ project: z.string(), network: z.enum(['host', 'none']) })
    .optional()
    .describe('Writes only project and temporary folders; network host or none'),
});
export type ProcessView = z.infer<typeof ProcessViewSchema>;

export function toProcessView(record: ProcessRecord): ProcessView {
  return {
    id: record.id,
    ...(record.name !== undefined && { name: record.name }),
    command: record.command,
    ...(record.args !== undefined && { args: record.args }),
    cwd: record.cwd,
    envKeys: record.envKeys,
    tags: record.tags,
    ports: record.ports,
    pid: record.pid,
    status: record.status,
    startedAt: record.startedAt,
    ...(record.endedAt !== undefined && { endedAt: record.endedAt }),
    ...(record.exitCode !== undefined && { exitCode: record.exitCode }),
    ...(record.signal !== undefined && { signal: record.signal }),
    logFile: record.logFile,
    ...(record.error !== undefined && { error: record.error }),
    ...(record.tty !== undefined && { tty: record.tty }),
    ...(record.restart !== undefined && { restart: record.restart.policy }),
    ...(record.restarts !== undefined && { restarts: record.restarts }),
    ...(record.sandbox !== undefined && { sandbox: record.sandbox }),
  };
}

/** One line for text renderings: `a1b2c3d4 web running pid 123 :5173 npm run dev`. */
export function describeProcess(view: ProcessView): string {
  const ended =
    view.status === 'running'
      ? ''
      : ` (${view.exitCode === undefined || view.exitCode === null ? 'exit unknown' : `exit ${view.exitCode}`}${view.signal ? `, ${view.signal}` : ''})`;
  const ports = view.ports.length > 0 ? ` :${view.ports.join(',:')}` : '';
  const commandLine = [view.command, ...(view.args ?? [])].join(' ');
  const sandbox = view.sandbox
    ? ` [sandbox: writes ${view.sandbox.project}${view.sandbox.network === 'none' ? ', no network' : ''}]`
    : '';
  return `${view.id}${view.name ? ` ${view.name}` : ''} ${view.status}${ended} pid ${view.pid}${ports}${sandbox} ${commandLine}`;
}
