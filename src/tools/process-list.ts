import { z } from 'zod';
import type { ListFilter, ProcessManager } from '../process/manager.js';
import { renderList } from '../process/render.js';
import { ProcessViewSchema, toProcessView } from '../process/view.js';

// What list_processes returns, and hub://processes serves as JSON: one builder for both.
export const ListProcessesOutput = z.object({
  processes: z.array(ProcessViewSchema),
  total: z.number().int(),
  running: z.number().int(),
  next: z.string().describe('What to call next, with the ids filled in'),
});
export type ListProcessesResult = z.infer<typeof ListProcessesOutput>;

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
