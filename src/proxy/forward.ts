import { McpError, type CallToolResult, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { HubError, errorMessage, isHubError } from '../errors.js';
import { errorResult } from '../tools/result.js';
import { ChildTimeoutError } from './fast-calls.js';
import type { ServerSlot } from './server-slot.js';
import type { ServerExtra } from './types.js';

const firstText = (result: CallToolResult): string => {
  const block = result.content?.[0];
  return block?.type === 'text' ? block.text.slice(0, 300) : 'the tool returned isError';
};

/**
 * One proxied call: lazy start, progress re-keyed to the caller's token, the caller's abort
 * signal passed on (the child gets notifications/cancelled), the child's result as it is.
 * Hub-side failures become `CODE: message` tool results; the child's own JSON-RPC errors stay errors.
 */
export async function forwardCall(slot: ServerSlot, tool: string, label: string, args: Record<string, unknown> | undefined, extra: ServerExtra, timeoutMs: number): Promise<CallToolResult> {
  const started = performance.now();
  slot.active += 1;
  try {
    const conn = slot.conn !== undefined && slot.state === 'ready' ? slot.conn : await slot.connection();
    const token = extra._meta?.progressToken;
    const onprogress =
      token === undefined
        ? undefined
        : (progress: Progress) => {
            extra.sendNotification({ method: 'notifications/progress', params: { ...progress, progressToken: token } }).catch(() => undefined);
          };
    const result = await conn.callTool(tool, args, { signal: extra.signal, onprogress, timeoutMs, meta: extra._meta });
    slot.metrics.record(performance.now() - started, result.isError === true ? firstText(result) : undefined);
    return result;
  } catch (error) {
    slot.metrics.record(performance.now() - started, errorMessage(error).split('\n')[0]);
    // The child's own protocol error (unknown tool, bad params) reaches the caller as it is.
    if (error instanceof McpError) throw error;
    if (extra.signal.aborted) throw error;
    if (isHubError(error)) return errorResult(error);
    if (error instanceof ChildTimeoutError) {
      return errorResult(
        new HubError('CHILD_TIMEOUT', `${label} did not answer within ${timeoutMs} ms (and sent no progress); the call was cancelled in server "${slot.name}". Try again, or raise callTimeoutMs in the hub config.`),
      );
    }
    return errorResult(new HubError('CHILD_UNAVAILABLE', `${label} could not be completed: ${errorMessage(error)}. Server "${slot.name}" is restarted automatically; call again.`));
  } finally {
    slot.active -= 1;
    if (slot.active === 0) slot.armIdle();
  }
}
