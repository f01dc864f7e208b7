// start_process: the tool, its sandbox (narrowed by the project file), the name a call is known by after a restart, and what to do next.
import { resolve } from 'node:path';
import { compileLinePattern } from '../process/logs/line-match.js';
import { readProcessIdentity } from '../core/process-identity.js';
import type { ProcessManager } from '../process/manager.js';
import { renderStart } from '../process/render.js';
import { toProcessView } from '../process/view.js';
import { defineTool, type HubTool } from './define.js';
import { logLink } from './hub-uris.js';
import { checkWatch, type ProcessEvents } from './process-events.js';
import { StartInputSchema, StartOutputSchema } from './process-schemas.js';
import type { ProcessSandboxAsk } from '../process/lifecycle/sandbox.js';
import { readProjectFile } from '../proxy/exposure/project-file.js';
import { findProjectFile } from '../proxy/exposure/project-lookup.js';

// A project's `.hub.json` "processes": {"sandbox": ...} makes the sandbox the default for the
// processes started in it. A repository file may only narrow: it turns the sandbox on (or the
// network off), never off when the call asked for it. An invalid file is ignored here, as the
// exposure ignores it (and warns).

const rank = { project: 1, 'project-offline': 2 } as const;

/** The sandbox a start runs in: the call's, or the project's default, whichever is narrower. */
export function startSandbox(
  asked: ProcessSandboxAsk | undefined,
  cwd: string | undefined,
  baseCwd: string | undefined,
): ProcessSandboxAsk | undefined {
  const folder = resolve(baseCwd ?? process.cwd(), cwd ?? '.');
  const file = findProjectFile([folder]);
  const scope = file === undefined ? undefined : readProjectFile(file);
  const project = scope?.kind === 'project' ? scope.processes?.sandbox : undefined;
  if (project === undefined) return asked;
  if (asked === undefined) return project;
  return rank[project] > rank[asked] ? project : asked;
}

// Claude Code and Codex show the model only structuredContent: the guidance goes there too.
function nextAfterStart(id: string, status: string): string {
  const logs = `get_process_logs {"id":"${id}"}`;
  return status === 'running'
    ? `${logs} reads its output (pass next_cursor back as cursor to follow it); kill_process {"id":"${id}"} stops it.`
    : `It is no longer running (${status}): ${logs} shows why.`;
}

/** A session's own working directory and environment: what a relative cwd and the child env start from. */
export interface ProcessBase {
  readonly cwd?: string | undefined;
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** The session's entry process, when it has one: with the JSON-RPC id, names a start_process call. */
  readonly entryPid?: number | undefined;
}

const startCallOf = (entry: string | undefined, id: string | number | undefined): string | undefined =>
  entry === undefined || id === undefined ? undefined : `${entry}#${JSON.stringify(id)}`;

// The entry named for good (pid and start time): a start_process its entry sends again after a
// shared hub died is known by it and its JSON-RPC id.
function entryOf(pid: number | undefined): string | undefined {
  const identity = pid === undefined ? undefined : readProcessIdentity(pid);
  return identity && `${identity.pid}@${identity.startTicks}`;
}

// The SDK's request context carries the call's JSON-RPC id.
const requestIdOf = (extra: unknown): string | number | undefined => {
  const id = (extra as { requestId?: unknown } | undefined)?.requestId;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
};

/** start_process for one session: its cwd and env as the base, its events for watch. */
export function startProcessTool(
  managerOf: () => Promise<ProcessManager>,
  base: ProcessBase | undefined,
  events: Pick<ProcessEvents, 'watch'>,
): HubTool {
  const entry = entryOf(base?.entryPid);
  return defineTool({
    name: 'start_process',
    title: 'Start a process',
    description:
      'Start a long-running command (dev server, watcher, build) that survives hub restarts; output goes to a log. ' +
      'wait_for returns once ready, exited or timed out. get_free_port picks a port.',
    input: StartInputSchema,
    output: StartOutputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async run(input, call) {
      checkWatch(input.watch);
      const wait = input.wait_for && {
        port: input.wait_for.port,
        pattern:
          input.wait_for.pattern === undefined
            ? undefined
            : compileLinePattern(input.wait_for.pattern, 'wait_for.pattern'),
        timeoutMs: input.wait_for.timeout_ms,
      };
      const ports = [
        ...new Set([...(input.ports ?? []), ...(input.wait_for?.port === undefined ? [] : [input.wait_for.port])]),
      ];
      const outcome = await (
        await managerOf()
      ).start(
        {
          command: input.command,
          args: input.args,
          cwd: input.cwd,
          env: input.env,
          name: input.name,
          tags: input.tags,
          ports,
          tty: input.tty ? { cols: input.cols, rows: input.rows } : undefined,
          restart: { policy: input.restart, max: input.max_restarts },
          startCall: startCallOf(entry, requestIdOf(call.extra)),
          sandbox: startSandbox(input.sandbox, input.cwd, base?.cwd),
        },
        wait,
        call.signal,
        base,
      );
      if (input.watch) await events.watch(outcome.record, input.watch);
      const view = toProcessView(outcome.record);
      const structured = {
        process: view,
        ...(outcome.wait && {
          ready: outcome.wait.ready,
          reason: outcome.wait.reason,
          waited_ms: outcome.wait.waitedMs,
        }),
        log_tail: outcome.tail,
        ...(outcome.alreadyStarted && { already_started: true }),
        next: nextAfterStart(view.id, view.status),
      };
      const text = renderStart(view, outcome.wait, outcome.tail);
      return {
        structured,
        text: outcome.alreadyStarted
          ? `This call had started it already, before hub restarted (no second copy). ${text}`
          : text,
        content: [logLink(view)],
      };
    },
  });
}
