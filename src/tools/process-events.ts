// The process events a session asked for (crash, exit, ready, a pattern), pushed as they come.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { HubPaths } from '../core/paths.js';
import type { Logger } from '../core/logger.js';
import { compileLinePattern, type LineMatcher } from '../process/logs/line-match.js';
import type { LogWatch } from '../process/log-watch.js';
import type { ProcessManager } from '../process/manager.js';
import type { ProcessRecord } from '../store/schema.js';
import { clientProfile } from '../proxy/exposure/known-clients.js';
import { logUri } from './hub-uris.js';

/** What start_process's `watch` names: an end (crash, exit), readiness (its wait_for), or a log pattern. */
export const WATCH_KEYWORDS = ['crash', 'exit', 'ready'] as const;

/** One event for the agent (docs/events.md). */
export interface ProcessEvent {
  readonly process: string;
  readonly name?: string;
  readonly event: 'crash' | 'exit' | 'ready' | 'match';
  readonly at: string;
  readonly status?: string;
  readonly exit_code?: number | null;
  readonly pattern?: string;
  readonly line?: string;
}

// The next result carries at most this many (the oldest go first); the rest are counted.
const MAX_QUEUED = 50;
const MAX_LINE = 300;
const READ_LINES = 500;
// Claude Code's channel notifications (code.claude.com/docs/en/channels-reference).
export const CHANNEL_CAPABILITY = 'claude/channel';
const CHANNEL_METHOD = 'notifications/claude/channel';
/** hub's own capability: Claude Code listens for its channel notifications (launched with the channel enabled). */
export const experimental = { [CHANNEL_CAPABILITY]: {} };

interface Watched {
  readonly record: ProcessRecord;
  readonly ends: boolean;
  readonly crash: boolean;
  readonly exit: boolean;
  ready: RegExpLike | undefined;
  readonly patterns: readonly LineMatcher[];
  cursor: number | undefined;
}
type RegExpLike = Pick<LineMatcher, 'test' | 'source'>;

/** start_process's watch, checked before the process starts: each pattern is compiled (bounded, RE2). */
export function checkWatch(watch: readonly string[] | undefined): void {
  for (const item of watch ?? [])
    if (!(WATCH_KEYWORDS as readonly string[]).includes(item)) compileLinePattern(item, `watch "${item}"`);
}

/**
 * The process events one session asked for (start_process's `watch`), pushed to it as they come:
 * resources/updated for the process's log resource always; Claude Code's channel notification
 * where the client can take it; and, for clients that cannot push to the model, in the `events`
 * field of the next result of one of hub's own tools (docs/events.md).
 */
export function createProcessEvents(deps: {
  readonly paths: HubPaths;
  readonly log: Logger;
  readonly server: Server;
  readonly manager: () => Promise<ProcessManager>;
}) {
  const watched = new Map<string, Watched>();
  const queue: ProcessEvent[] = [];
  let dropped = 0;
  let watch: Promise<LogWatch> | undefined;
  let closed = false;

  const channel = (): { declared: boolean; known: boolean } => {
    const declared = deps.server.getClientCapabilities()?.experimental?.[CHANNEL_CAPABILITY] !== undefined;
    return { declared, known: declared || clientProfile(deps.server.getClientVersion()?.name).label === 'Claude Code' };
  };

  const emit = (event: ProcessEvent): void => {
    const { declared, known } = channel();
    void deps.server.sendResourceUpdated({ uri: logUri(event.process) }).catch(() => undefined);
    if (known) {
      const what = event.event === 'match' ? `printed a line matching ${event.pattern}: ${event.line}` : event.event;
      const content = `Process ${event.name ?? event.process} ${what}${event.exit_code != null ? ` (exit code ${event.exit_code})` : ''}.`;
      const meta = Object.fromEntries(
        Object.entries({ source: 'hub', ...event }).map(([key, value]) => [key, String(value)]),
      );
      void deps.server.notification({ method: CHANNEL_METHOD, params: { content, meta } }).catch(() => undefined);
    }
    // A client that said it takes channel notifications has the event already.
    if (declared) return;
    if (queue.length >= MAX_QUEUED) {
      queue.shift();
      dropped += 1;
    }
    queue.push(event);
  };

  const base = (entry: Watched, kind: ProcessEvent['event']) => ({
    process: entry.record.id,
    ...(entry.record.name !== undefined && { name: entry.record.name }),
    event: kind,
    at: new Date().toISOString(),
  });

  async function onUpdate(id: string, ended: boolean): Promise<void> {
    const entry = watched.get(id);
    if (!entry || closed) return;
    const manager = await deps.manager();
    if (entry.ready || entry.patterns.length > 0) {
      const { slice } = await manager.logs({ reference: id, lines: READ_LINES, cursor: entry.cursor });
      entry.cursor = slice.nextCursor;
      for (const line of slice.lines) {
        if (entry.ready?.test(line)) {
          entry.ready = undefined;
          emit(base(entry, 'ready'));
        }
        for (const pattern of entry.patterns)
          if (pattern.test(line))
            emit({ ...base(entry, 'match'), pattern: pattern.source, line: line.slice(0, MAX_LINE) });
      }
    }
    if (!ended) return;
    watched.delete(id);
    // The log can end before the process's exit is on record: look again briefly (bounded), or a
    // crash would be taken for a process still running and never said.
    let record = await manager.get(id);
    for (let look = 0; record.status === 'running' && look < 50; look += 1) {
      await sleep(100);
      record = await manager.get(id);
    }
    const crashed = record.status === 'failed' || (record.status === 'exited' && record.exitCode !== 0);
    if ((crashed && entry.crash) || entry.exit)
      emit({
        ...base(entry, crashed && entry.crash ? 'crash' : 'exit'),
        status: record.status,
        exit_code: record.exitCode ?? null,
      });
  }

  const logWatch = () =>
    (watch ??= import('../process/log-watch.js').then(module =>
      module.createLogWatch({
        paths: deps.paths,
        onUpdate: (id, ended) =>
          void onUpdate(id, ended).catch(error => deps.log.debug({ err: error, process: id }, 'process event lost')),
      }),
    ));

  return {
    /** Watch this process for this session (start_process's `watch`); the log is read from its current end. */
    async watch(record: ProcessRecord, items: readonly string[]): Promise<void> {
      if (items.length === 0 || closed) return;
      const patterns = items
        .filter(item => !(WATCH_KEYWORDS as readonly string[]).includes(item))
        .map(item => compileLinePattern(item, `watch "${item}"`));
      const readyPattern = record.ready?.pattern;
      const manager = await deps.manager();
      const { slice } = await manager.logs({ reference: record.id, lines: 1 });
      watched.set(record.id, {
        record,
        ends: items.includes('crash') || items.includes('exit'),
        crash: items.includes('crash'),
        exit: items.includes('exit'),
        ready:
          items.includes('ready') && readyPattern !== undefined ? compileLinePattern(readyPattern, 'ready') : undefined,
        patterns,
        cursor: slice.nextCursor,
      });
      (await logWatch()).add(record);
    },

    /** A result with the queued events in structuredContent.events (and a line of text), the queue emptied. */
    decorate(result: CallToolResult): CallToolResult {
      if (queue.length === 0) return result;
      const events = queue.splice(0, queue.length);
      const more = dropped;
      dropped = 0;
      const text = `[hub events] ${events.map(event => `${event.name ?? event.process}: ${event.event}${event.line ? ` ${event.line}` : ''}`).join('; ')}${more > 0 ? ` (${more} older dropped)` : ''}`;
      return {
        ...result,
        content: [...result.content, { type: 'text', text }],
        structuredContent: { ...result.structuredContent, events },
      };
    },

    close(): void {
      closed = true;
      watched.clear();
      void watch?.then(active => active.close());
    },
  };
}

export type ProcessEvents = ReturnType<typeof createProcessEvents>;
