// Tasks in the tool lists: which tools need one, which children run one, what clients without see.
import type { CachedTool, ToolIssue } from '../../store/schema.js';

// Tasks (MCP 2025-11-25) in the tool lists: which tools need a task, which children can run one,
// and how a tool is shown to a client that cannot. No SDK or zod import: the cold-start lane
// lists tools through this too.

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The first protocol revision with tasks. */
export const TASKS_PROTOCOL = '2025-11-25';

export type TaskSupport = 'required' | 'optional' | 'forbidden';

/** A tool's `execution.taskSupport` (absent means forbidden). */
export function taskSupportOf(tool: Json): TaskSupport {
  const support = isObject(tool.execution) ? tool.execution.taskSupport : undefined;
  return support === 'required' || support === 'optional' ? support : 'forbidden';
}

/** Whether a server declared task-augmented tools/call (capabilities.tasks.requests.tools.call). */
export function runsToolTasks(capabilities: Json | undefined): boolean {
  const tasks = capabilities?.tasks;
  if (!isObject(tasks) || !isObject(tasks.requests)) return false;
  const tools = tasks.requests.tools;
  return isObject(tools) && isObject(tools.call);
}

/**
 * A client that speaks tasks: it declared the `tasks` capability and negotiated a revision that
 * has them (an unknown revision, as over an in-memory pair, is judged by the capability alone).
 */
export function clientTakesTasks(capabilities: Json | undefined, protocolVersion: string | undefined): boolean {
  if (!isObject(capabilities?.tasks)) return false;
  // Revisions are dates: they compare as strings.
  return protocolVersion === undefined || protocolVersion >= TASKS_PROTOCOL;
}

/**
 * A child's tools less those it cannot run: a tool that requires a task, from a child that did
 * not declare task-augmented tools/call, can never be called, so it is not listed; registry.list
 * { server } shows why (the issue).
 */
export function withoutUncallableTasks(
  intake: { tools: CachedTool[]; issues: ToolIssue[] },
  capabilities: Json | undefined,
): { tools: CachedTool[]; issues: ToolIssue[] } {
  if (runsToolTasks(capabilities)) return intake;
  const uncallable = intake.tools.filter(tool => taskSupportOf(tool) === 'required');
  if (uncallable.length === 0) return intake;
  const reason =
    'it requires task-augmented calls (execution.taskSupport "required"), but the server did not declare the tasks capability for tools/call, so it cannot be called';
  return {
    tools: intake.tools.filter(tool => !uncallable.includes(tool)),
    issues: [...intake.issues, ...uncallable.map(tool => ({ tool: tool.name, action: 'skipped' as const, reason }))],
  };
}

/**
 * The tools as one client sees them. For a client without tasks, hub runs a task-required tool
 * inside an ordinary tools/call (tasks/run.ts), so to that client it is an ordinary tool: its
 * `execution.taskSupport` is dropped (an SDK client refuses to call a "required" tool without a
 * task). A client with tasks sees every tool as the server listed it.
 */
export function toolsForClient<T extends Json>(tools: T[], takesTasks: boolean): T[] {
  if (takesTasks) return tools;
  return tools.map(tool => {
    if (taskSupportOf(tool) !== 'required') return tool;
    const { taskSupport: _dropped, ...execution } = tool.execution as Json;
    const { execution: _execution, ...rest } = tool;
    return (Object.keys(execution).length > 0 ? { ...rest, execution } : rest) as T;
  });
}
