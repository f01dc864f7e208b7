// What registry.list and the CLI see of one slot, and the result of a call to a server gone.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Refusal } from '../listing/tool-filter.js';
import type { ServerState } from './state.js';
import type { RouteTable } from '../listing/routes.js';
import type { ServerSlot } from './server-slot.js';

// What registry.list and the CLI see of one slot, and the result of a call to a server that is gone.

export interface ServerStatusView {
  name: string;
  package?: string;
  version?: string;
  mode: 'npm' | 'command';
  /** What runs it: an npm package, a program on this machine, a URL, or a registry package of another kind. */
  kind: 'npm' | 'command' | 'remote' | 'pypi' | 'oci' | 'mcpb';
  state: ServerState;
  pid?: number;
  /** Exposed dotted names. */
  tools: string[];
  calls: number;
  errors: number;
  meanMs: number | null;
  p95Ms: number | null;
  restarts: number;
  lastError?: string;
  /** The MCP revision hub negotiated with the server (while it runs). */
  protocolVersion?: string;
  /** The instructions the server sent at initialize, as kept in its record. */
  instructions?: string;
  logFile: string;
}

export function unavailable(name: string): CallToolResult {
  return {
    content: [
      {
        type: 'text',
        text: `CHILD_UNAVAILABLE: Server "${name}" is no longer installed or hub is shutting down; call tools/list again.`,
      },
    ],
    isError: true,
  };
}

/** A call to a tool tool-filter.ts left out: why, and what changes it, as a tool error the model reads. */
export const refusedResult = (why: Refusal): CallToolResult => ({
  content: [{ type: 'text', text: `${why.code}: ${why.message}` }],
  isError: true,
});

export function statusView(slot: ServerSlot, table: RouteTable, logFile: string): ServerStatusView {
  const { record, metrics } = slot;
  const view: ServerStatusView = {
    name: record.name,
    mode: record.mode,
    kind: record.kind ?? record.mode,
    state: slot.state,
    tools: [...(table.byServer.get(record.name)?.values() ?? [])].map(route => route.dotted),
    calls: metrics.calls,
    errors: metrics.errors,
    meanMs: metrics.meanMs,
    p95Ms: metrics.p95Ms,
    restarts: metrics.restarts,
    logFile,
  };
  if (record.package !== undefined) view.package = record.package;
  if (record.version !== undefined) view.version = record.version;
  if (slot.conn?.pid !== undefined) view.pid = slot.conn.pid;
  if (slot.conn?.protocolVersion !== undefined) view.protocolVersion = slot.conn.protocolVersion;
  if (metrics.lastError !== undefined) view.lastError = metrics.lastError;
  if (record.instructions !== undefined) view.instructions = record.instructions;
  return view;
}
