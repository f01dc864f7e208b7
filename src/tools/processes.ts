import type { ToolDeps, ToolGroup } from './define.js';

// start_process, list_processes, get_process_logs, kill_process, get_free_port (issue: core).
export function createProcessTools(_deps: ToolDeps): ToolGroup {
  return { tools: [] };
}
