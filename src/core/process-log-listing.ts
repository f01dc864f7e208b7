// Which process logs hub lists among its own resources, and how each is listed (docs/tools.md "hub's own
// resources"). Zero-dependency: the full hub (tools/hub-resources.ts) and the cold-start lane list
// them from the same code, so both answer resources/list alike.

import { fit } from './clip.js';

/** What a listed log is made from: the fields of a process record it reads. */
export interface LoggedProcess {
  readonly id: string;
  readonly name?: string | undefined;
  readonly command: string;
  readonly args?: readonly string[] | undefined;
  readonly startedAt: string;
}

/** A listed resource (the SDK's Resource, without the SDK). */
export interface LogResource {
  readonly uri: string;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly mimeType: string;
}

// The newest processes' logs are listed one by one (a person's client attaches listed
// resources); older ones stay readable through the template.
export const LISTED_LOGS_MAX = 50;

/** The log resource of a process; with cursor, the output written since that cursor. */
export function logUri(id: string, cursor?: number): string {
  return `hub://processes/${encodeURIComponent(id)}/log${cursor === undefined ? '' : `?cursor=${cursor}`}`;
}

/** The log resource of one process as hub lists it and links to it from start_process and get_process_logs. */
export function logResource(process: Omit<LoggedProcess, 'startedAt'>): LogResource {
  const commandLine = [process.command, ...(process.args ?? [])].join(' ');
  const shown = fit(commandLine, 80);
  return {
    uri: logUri(process.id),
    name: `process-${process.id}-log`,
    title: `Log of ${process.name ?? process.id}: ${shown}`,
    description:
      'The last 100 lines of its stdout+stderr, ANSI stripped. Subscribe for updates while it runs; ' +
      'add "?cursor=N" (next_cursor from _meta) for only newer output.',
    mimeType: 'text/plain',
  };
}

/** The processes whose logs are listed: the newest first (ties by id), at most LISTED_LOGS_MAX. */
export function newestProcesses<T extends LoggedProcess>(processes: readonly T[]): T[] {
  return [...processes]
    .sort((a, b) => b.startedAt.localeCompare(a.startedAt) || a.id.localeCompare(b.id))
    .slice(0, LISTED_LOGS_MAX);
}
