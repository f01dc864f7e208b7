// The dashboard's JSON API: each route validated and done by the same code as its tool or command.
import { z } from 'zod';
import type { HubConfig } from '../core/config/config.js';
import { HubError } from '../core/errors.js';
import { compileLinePattern } from '../process/logs/line-match.js';
import { tailLog } from '../process/logs/read.js';
import type { ProcessManager } from '../process/manager.js';
import { toProcessView } from '../process/view.js';
import type { ServerManager } from '../proxy/manager-types.js';
import { describeServer, uninstallServer } from '../registry/installed/servers.js';
import { createSearch } from '../registry/search/search.js';
import { configureServer } from '../registry/installed/settings.js';
import { sandboxRequest } from '../registry/installed/sandbox-settings.js';
import { integrityReport } from '../registry/decisions/tool-review.js';
import type { HubContext } from '../store/open-context.js';
import { SendInputSchema } from '../tools/interactive-schemas.js';
import { KillInputSchema, LogsInputSchema, StartInputSchema } from '../tools/process-schemas.js';
import { InstallInputSchema } from '../tools/registry-schemas.js';
import type { ChartsView } from './charts.js';
import type { InstallJobs } from './install-jobs.js';
import { auditQuery } from './audit-api.js';
import { dashboardSandbox } from './sandbox-view.js';
import type { DashboardState } from './state.js';

// The JSON API under /api/: each route validates with the tool's own zod schema where there is
// one, and does its work through the same functions as the tool or CLI command of the same name.

export interface ApiDeps extends HubContext {
  readonly processes: ProcessManager;
  readonly servers: ServerManager;
  readonly jobs: InstallJobs;
  readonly state: () => Promise<DashboardState>;
  readonly charts: () => ChartsView;
}

export interface ApiRequest {
  readonly method: string;
  readonly path: string[];
  readonly query: URLSearchParams;
  readonly body: unknown;
}

const SERVER_LOG_LINES = 200;
const never = new AbortController().signal;

const parse = <T extends z.ZodType>(schema: T, value: unknown): z.infer<T> => {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new HubError('INVALID_INPUT', `Field "${issue.path.join('.') || '(body)'}": ${issue.message}`);
};

const number = (value: string | null): number | undefined =>
  value === null || value === '' ? undefined : Number(value);

const ConsentSchema = z.strictObject({ approve: z.boolean() });
const ConfigureSchema = z.strictObject({
  enabled: z.boolean().optional(),
  tools: z.strictObject({ allow: z.array(z.string()).optional(), deny: z.array(z.string()).optional() }).optional(),
  // Checked by registry.configure's own sandboxRequest (the same messages, naming the field).
  sandbox: z.unknown().optional(),
});
// The person at the page is the person: a widening is theirs to make, and goes on the audit log
// as their decision, naming what it widens (installed/audit-configure.ts).
const decidedOnPage = async (): Promise<void> => undefined;
const RemoveSchema = z.strictObject({ remove: z.boolean().optional() }).optional();
// The page sends what a person typed: text and named keys, as send_input takes them.
const InputSchema = SendInputSchema.pick({ text: true, keys: true });

const notFound = (what: string) => new HubError('NOT_FOUND', `No API route ${what}.`);

export async function handleApi(deps: ApiDeps, request: ApiRequest): Promise<unknown> {
  const { method, path, query, body } = request;
  const [section, name, action] = path;
  const config: HubConfig = deps.config;

  if (method === 'GET' && section === 'state' && name === undefined) return deps.state();
  if (method === 'GET' && section === 'charts' && name === undefined) return deps.charts();
  if (method === 'GET' && section === 'audit' && name === undefined) return auditQuery(config.paths, query);

  if (section === 'processes') {
    if (method === 'POST' && name === undefined) {
      const input = parse(StartInputSchema, body);
      const outcome = await deps.processes.start(
        {
          command: input.command,
          args: input.args,
          cwd: input.cwd,
          env: input.env,
          name: input.name,
          tags: input.tags,
          ports: input.ports,
          tty: input.tty ? { cols: input.cols, rows: input.rows } : undefined,
          restart: { policy: input.restart, max: input.max_restarts },
        },
        undefined,
        never,
      );
      return { process: toProcessView(outcome.record), log_tail: outcome.tail };
    }
    if (name === undefined) throw notFound(`${method} /api/processes`);
    if (method === 'GET' && action === 'logs') {
      const input = parse(LogsInputSchema, {
        id: name,
        lines: number(query.get('lines')),
        cursor: number(query.get('cursor')),
        grep: query.get('grep') || undefined,
        raw: true,
      });
      const { record, slice } = await deps.processes.logs({
        reference: input.id,
        lines: input.lines,
        cursor: input.cursor,
        grep: input.grep === undefined ? undefined : compileLinePattern(input.grep, 'grep'),
        raw: input.raw,
      });
      return {
        id: record.id,
        status: record.status,
        lines: slice.lines,
        next_cursor: slice.nextCursor,
        truncated: slice.truncated,
        cursor_reset: slice.cursorReset,
        dropped_bytes: slice.droppedBytes,
      };
    }
    if (method === 'GET' && action === 'screen') {
      const { record, screen } = await deps.processes.screen(name);
      return { id: record.id, screen };
    }
    if (method === 'POST' && action === 'kill') {
      const input = parse(KillInputSchema, { id: name, ...(body as object) });
      const outcome = await deps.processes.kill({
        reference: input.id,
        signal: input.signal,
        graceMs: input.grace_ms ?? config.stopGraceMs,
        remove: input.remove,
      });
      return { process: toProcessView(outcome.record), removed: outcome.removed, warning: outcome.warning ?? null };
    }
    if (method === 'POST' && action === 'remove') {
      parse(RemoveSchema, body);
      const outcome = await deps.processes.kill({
        reference: name,
        signal: 'SIGTERM',
        graceMs: config.stopGraceMs,
        remove: true,
      });
      return { removed: outcome.removed };
    }
    // Typed on the page: text and keys only; the output arrives in the live log, so no wait.
    if (method === 'POST' && action === 'input') {
      const input = parse(InputSchema, body);
      const { outcome } = await deps.processes.send(
        name,
        { text: input.text, keys: input.keys, pattern: undefined, idleMs: 0, timeoutMs: 1_000, lines: 1 },
        never,
      );
      return { bytes_sent: outcome.bytesSent };
    }
    if (method === 'POST' && action === 'restart') {
      const outcome = await deps.processes.restart(name, config.stopGraceMs);
      return { process: toProcessView(outcome.record), via: outcome.via };
    }
    throw notFound(`${method} /api/processes/${name}/${action ?? ''}`);
  }

  if (section === 'servers' && name !== undefined) {
    if (method === 'GET' && action === undefined) {
      const described = await describeServer(name, 'dotted', deps.store, config.paths, deps.servers);
      const record = (await deps.store.read()).servers[name];
      // The person sees a changed tool's old and new text side by side (integrity), never as if approved.
      const integrity = record ? integrityReport(config.paths, record, config.integrity, 'person') : {};
      const pending = new Map((integrity.changed ?? []).map(change => [change.tool, change.action]));
      const tools = described.tools.map(({ description, ...tool }) => {
        const action = pending.get(tool.tool);
        return action === 'withheld'
          ? { ...tool, withheld: true }
          : { ...tool, ...(description !== undefined && { description }), ...(action && { flagged: true }) };
      });
      const sandbox = record ? await dashboardSandbox(record, config) : undefined;
      return { summary: described.summary, tools, integrity, sandbox };
    }
    if (method === 'GET' && action === 'log') {
      const [view] = await deps.servers.status(name);
      if (!view) throw new HubError('NOT_FOUND', `No server named "${name}" is installed.`);
      const slice = tailLog(view.logFile, { lines: SERVER_LOG_LINES, maxBytes: config.resultCapBytes });
      return { logFile: view.logFile, lines: slice.lines };
    }
    if (method === 'POST' && action === 'start') {
      const tools = await deps.servers.start(name);
      return { name, tools: tools.length };
    }
    if (method === 'POST' && action === 'stop') {
      await deps.servers.stop(name);
      return { name, stopped: true };
    }
    if (method === 'POST' && action === 'configure') {
      const input = parse(ConfigureSchema, body);
      const request = { server: name, ...input, sandbox: sandboxRequest(input.sandbox) };
      return configureServer(request, {
        ...deps,
        manager: deps.servers,
        audience: 'person',
        confirmSettings: decidedOnPage,
      });
    }
    if (method === 'POST' && action === 'upgrade') {
      const record = (await deps.store.read()).servers[name];
      if (!record) throw new HubError('NOT_FOUND', `No server named "${name}" is installed.`);
      if (record.mode !== 'npm' || record.package === undefined)
        throw new HubError('INVALID_INPUT', `Server "${name}" is not an npm install: update the program itself.`);
      return { job: deps.jobs.start({ package: `${record.package}@latest`, name, upgrade: true }) };
    }
    if (method === 'POST' && action === 'uninstall') {
      const result = await uninstallServer(name, { ...deps, manager: deps.servers }, { purge: false });
      return { name: result.name, removedTools: result.removedTools.length };
    }
    throw notFound(`${method} /api/servers/${name}/${action ?? ''}`);
  }

  if (method === 'GET' && section === 'search') {
    const text = query.get('q') ?? '';
    if (text.trim() === '') throw new HubError('INVALID_INPUT', 'Field "q": give words to search for.');
    return createSearch(deps).search({ query: text, limit: 20 });
  }

  if (method === 'POST' && section === 'install') {
    if (name === undefined) return { job: deps.jobs.start(parse(InstallInputSchema, body)) };
    if (action === 'consent') {
      deps.jobs.answer(name, parse(ConsentSchema, body).approve);
      return { job: name };
    }
  }
  throw notFound(`${method} /api/${path.join('/')}`);
}
