// A proxied call's audit record, gathered on the call path and written later.
import { currentActor } from '../../core/actor.js';
import { errorMessage, isHubError } from '../../core/errors.js';
import type { AuditLog } from '../../store/audit/log.js';
import type { AuditOutcome } from '../../store/audit/line.js';
import { CallCancelledError } from '../../wire/fast-calls.js';
import { RpcError } from '../../wire/rpc-error.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

// An error result's code: hub's own are `CODE: message`; a child's own isError has none.
const HUB_CODE = /^([A-Z][A-Z0-9_]{2,40}): /;

function firstText(result: unknown): string {
  const content = (result as { content?: { type?: string; text?: string }[] }).content;
  const block = Array.isArray(content) ? content[0] : undefined;
  return block?.type === 'text' && typeof block.text === 'string' ? block.text : '';
}

/** What a finished call's result or error says, for its audit line. */
export function callOutcome(
  result: unknown,
  error?: unknown,
): { outcome: AuditOutcome; code?: string | undefined; error?: string | undefined } {
  if (error !== undefined) {
    if (error instanceof CallCancelledError) return { outcome: 'cancelled', code: 'CANCELLED' };
    const code =
      error instanceof RpcError || error instanceof McpError
        ? `RPC_${error.code}`
        : isHubError(error)
          ? error.code
          : 'INTERNAL';
    return { outcome: 'error', code, error: errorMessage(error).split('\n')[0] };
  }
  if ((result as { isError?: unknown } | undefined)?.isError !== true) return { outcome: 'ok' };
  const text = firstText(result);
  return { outcome: 'error', code: HUB_CODE.exec(text)?.[1] ?? 'TOOL_ERROR', error: text.split('\n')[0] };
}

/**
 * A proxied call's audit record, queued (store/audit/log.ts writes it later, redacted): this runs
 * on the tools/call path, so it only gathers references and never touches the disk.
 */
export function auditCall(
  audit: AuditLog | undefined,
  call: { server: string; tool: string; args: unknown; session: object | undefined; ms: number },
  result: unknown,
  error?: unknown,
): void {
  if (audit === undefined) return;
  audit.record({
    kind: 'call',
    t: Date.now(),
    session: call.session,
    by: call.session === undefined ? currentActor().by : 'agent',
    server: call.server,
    tool: call.tool,
    args: call.args,
    ms: Math.round(call.ms * 100) / 100,
    ...callOutcome(result, error),
    result,
  });
}
