// A 2025-11-25 child's tasks/result for one task, asked again while the task is still running.
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { rpcErrorMember } from '../../wire/rpc-error.js';
import type { ChildConnection } from '../child/connection.js';
import { withHubTaskId } from './forward.js';
import type { TaskRoute } from './task-routes.js';

type Json = Record<string, unknown>;

const AnyResult = z.looseObject({});

/** How a 2025-11-25 child's task ended: its tasks/result, or the JSON-RPC error that took its place. */
export type TaskOutcome = { result: Json } | { error: Json };

/**
 * A 2025-11-25 child's tasks/result for one task, asked again each time it waits longer than
 * `waitMs` while the task is still `wanted`. Only this stream carries what the child asks the
 * person during the task, so it is read from the start; the child's requests are relayed
 * meanwhile (waitingOnTask), and the task's questions are held where relay.ts puts them.
 */
export async function childTaskResult(
  conn: ChildConnection,
  route: TaskRoute,
  waitMs: number,
  wanted: () => boolean,
): Promise<TaskOutcome> {
  const waiting = conn.waitingOnTask();
  try {
    for (;;) {
      try {
        const result = await conn.request({ method: 'tasks/result', params: { taskId: route.childId } }, AnyResult, {
          timeout: waitMs,
        });
        return { result: withHubTaskId(result, route) };
      } catch (error) {
        const waited = error instanceof McpError && error.code === ErrorCode.RequestTimeout && !conn.exit;
        if (waited && wanted()) continue;
        return { error: rpcErrorMember(error) };
      }
    }
  } finally {
    waiting();
  }
}
