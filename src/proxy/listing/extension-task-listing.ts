// Tools of a child with the Tasks extension, as 2025-11-25 clients read them (taskSupport optional).
import type { CachedTool, ToolIssue } from '../../store/schema.js';
import { TASKS_EXTENSION } from '../../wire/tasks-extension.js';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Whether a server declared the Tasks extension (2026-07-28): any of its tool calls may become a task. */
export function runsExtensionTasks(capabilities: Json | undefined): boolean {
  return isObject(capabilities?.extensions) && isObject(capabilities.extensions[TASKS_EXTENSION]);
}

/**
 * The tools of a server that declared the Tasks extension, as 2025-11-25 clients read them: the
 * extension lets the server make any call a task, which the 2025 revision says with
 * `execution.taskSupport: "optional"` (a client with tasks may then call it as one, and hub turns
 * the child's task into a 2025 one, tasks/child-extension.ts). A tool that says otherwise keeps it.
 */
export function withExtensionTaskSupport(
  intake: { tools: CachedTool[]; issues: ToolIssue[] },
  capabilities: Json | undefined,
): { tools: CachedTool[]; issues: ToolIssue[] } {
  if (!runsExtensionTasks(capabilities)) return intake;
  const tools = intake.tools.map(tool => {
    const execution = isObject(tool.execution) ? tool.execution : {};
    return execution.taskSupport === undefined
      ? ({ ...tool, execution: { ...execution, taskSupport: 'optional' } } as CachedTool)
      : tool;
  });
  return { ...intake, tools };
}
