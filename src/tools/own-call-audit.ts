// A call of hub's own tools, run as its session's agent and recorded on the audit log.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { runAs } from '../core/actor.js';
import type { AuditLog } from '../store/audit/log.js';
import { callOutcome } from '../proxy/calls/audit.js';

// send_input's text is the person's business (docs/audit.md): its process line keeps keys and
// length, and the text only with audit.inputText on; the call line never does.
function keptArgs(tool: string, args: unknown): unknown {
  if (tool !== 'send_input' || args === null || typeof args !== 'object') return args;
  const { text, ...rest } = args as Record<string, unknown>;
  return typeof text === 'string' ? { ...rest, text: `[${text.length} chars]` } : rest;
}

/**
 * One call of hub's own tools: run as the agent of its session (what it starts, installs or
 * approves is recorded as the agent's, core/actor.ts), and recorded as a call of server "hub".
 */
export async function auditedOwnCall(
  audit: AuditLog | undefined,
  tool: string,
  args: unknown,
  session: object | undefined,
  run: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const started = performance.now();
  const result = await runAs({ by: 'agent', session }, run);
  audit?.record({
    kind: 'call',
    t: Date.now(),
    session,
    by: 'agent',
    server: 'hub',
    tool,
    args: keptArgs(tool, args),
    ms: Math.round((performance.now() - started) * 100) / 100,
    ...callOutcome(result),
    result,
  });
  return result;
}
