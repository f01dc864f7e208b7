// What list_processes returns and hub://processes serves: one builder for both.
import type { z } from 'zod';
import type { ListFilter, ProcessManager } from '../process/manager.js';
import { renderList } from '../process/render.js';
import { toProcessView } from '../process/view.js';
import type { ListOutputSchema } from './process-schemas.js';

// What list_processes returns, and hub://processes serves as JSON: one builder for both.
export type ListProcessesResult = z.infer<typeof ListOutputSchema>;

export async function processListResult(
  manager: ProcessManager,
  filter: ListFilter = {},
): Promise<{ structured: ListProcessesResult; text: string }> {
  const processes = (await manager.list(filter)).map(toProcessView);
  const running = processes.filter(view => view.status === 'running').length;
  const next =
    processes.length === 0
      ? 'No processes. Start one with start_process.'
      : 'get_process_logs {"id":"<id>"} reads a process\'s output; kill_process {"id":"<id>"} stops one.';
  return { structured: { processes, total: processes.length, running, next }, text: renderList(processes) };
}
