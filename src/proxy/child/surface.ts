// A child's prompts, resources and logging: its lists read whole, and its notifications about them.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  TaskStatusNotificationSchema,
  type LoggingMessageNotification,
  type Task,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { SURFACE_LIMITS, takeSurface, type SurfaceIntake, type SurfaceKind } from './surface-intake.js';
import type { ServerLog } from './server-log.js';

// The child's side of prompts, resources and logging: listing them whole, and the notifications
// it sends about them.

/** What a child tells hub on its own, passed on by the proxied surface (proxied-surface.ts). */
export interface SurfaceEvents {
  /** notifications/resources/updated from server. */
  resourceUpdated(server: string, uri: string): void;
  /** notifications/message from server. */
  message(server: string, params: LoggingMessageNotification['params']): void;
  /** notifications/tasks/status from server (its own task id). */
  taskStatus?(server: string, task: Task): void;
}

const METHODS: Record<SurfaceKind, string> = {
  prompts: 'prompts/list',
  resources: 'resources/list',
  resourceTemplates: 'resources/templates/list',
};

// Read loosely: each entry is checked on its own (surface-intake.ts).
const pageSchema = (kind: SurfaceKind) =>
  z.looseObject({ [kind]: z.array(z.unknown()), nextCursor: z.string().optional() });

/** Every page of one list (bounded by SURFACE_LIMITS: pages, and entries beyond the cap are not fetched). */
async function listAll(client: Client, kind: SurfaceKind, timeoutMs: number): Promise<unknown[]> {
  const entries: unknown[] = [];
  const schema = pageSchema(kind);
  let cursor: string | undefined;
  let pages = 0;
  do {
    const params = cursor === undefined ? {} : { cursor };
    const page = (await client.request({ method: METHODS[kind], params }, schema, { timeout: timeoutMs })) as Record<
      string,
      unknown
    >;
    entries.push(...(page[kind] as unknown[]));
    cursor = page.nextCursor as string | undefined;
    pages += 1;
  } while (cursor !== undefined && pages < SURFACE_LIMITS.maxPages && entries.length <= SURFACE_LIMITS[kind]);
  return entries;
}

/** The child's prompts, resources and templates, each list complete; nothing asked of what it did not declare. */
export async function listSurface(client: Client, timeoutMs: number): Promise<SurfaceIntake> {
  const capabilities = client.getServerCapabilities() ?? {};
  const [prompts, resources, resourceTemplates] = await Promise.all([
    capabilities.prompts ? listAll(client, 'prompts', timeoutMs) : [],
    capabilities.resources ? listAll(client, 'resources', timeoutMs) : [],
    capabilities.resources ? listAll(client, 'resourceTemplates', timeoutMs).catch(() => []) : [],
  ]);
  return takeSurface({ prompts, resources, resourceTemplates });
}

/** Listens for the child's list changes, resource updates and log messages. */
export function watchSurface(
  client: Client,
  server: string,
  serverLog: ServerLog,
  changed: () => void,
  events: SurfaceEvents | undefined,
): void {
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => changed());
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => changed());
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, notice =>
    events?.resourceUpdated(server, notice.params.uri),
  );
  client.setNotificationHandler(LoggingMessageNotificationSchema, notice => {
    const { level, logger, data } = notice.params;
    // Bounded like every other line in the server's log (server-log.ts caps the file).
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    serverLog.write(`[${level}]${logger === undefined ? '' : ` ${logger}:`} ${text.slice(0, 16 * 1024)}\n`);
    events?.message(server, notice.params);
  });
  client.setNotificationHandler(TaskStatusNotificationSchema, notice => {
    const { _meta: _ignored, ...task } = notice.params;
    events?.taskStatus?.(server, task);
  });
}
