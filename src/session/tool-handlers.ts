// A session's tools/list and tools/call: hub's own tools, the proxied ones, and an MCP App's own names.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../core/logger.js';
import { spellText, type NameMode } from '../core/naming.js';
import { tracedCall } from '../core/telemetry/telemetry.js';
import { RpcError } from '../wire/rpc-error.js';
import type { ClientSide } from '../proxy/sessions/client-side.js';
import type { SessionExtra } from '../proxy/calls/forward.js';
import type { ProxiedTools } from '../proxy/types.js';
import { toolsForClient } from '../proxy/listing/task-listing.js';
import { appRoute } from '../proxy/exposure/app-calls.js';
import { callAsTask, type ClientProtocol } from '../proxy/tasks/handlers.js';
import type { createToolTable } from '../tools/table.js';
import type { ExposedTools } from '../tools/exposed-tools.js';
import type { ToolListing } from '../tools/listing.js';

export interface ToolHandlerDeps {
  readonly server: Server;
  readonly client: ClientSide;
  readonly log: Logger;
  readonly mode: NameMode;
  readonly table: ReturnType<typeof createToolTable>;
  readonly exposed: ExposedTools;
  readonly ready: ToolListing;
  readonly proxied: ProxiedTools;
  readonly protocol: ClientProtocol;
  /** Upper bound on holding a result until the client re-lists. */
  readonly relistWaitMs: number;
}

export function registerToolHandlers(deps: ToolHandlerDeps): void {
  const { server, client, log, mode, table, exposed, ready, proxied, protocol, relistWaitMs } = deps;
  // Answered from the ready listing, never after I/O: a client re-lists right after
  // list_changed, and the agent's next turn must have the new tools. Another hub's changes are
  // picked up behind the answer and announced with list_changed.
  server.setRequestHandler(ListToolsRequestSchema, () => {
    const tools = toolsForClient(ready.tools(), protocol.takesTasks());
    ready.served();
    proxied.refresh?.().catch(error => log.debug({ err: error }, 'could not re-read the installed servers'));
    return { tools };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, untagged) => {
    // Calls carry their session: a child's request to the person during one goes back here.
    const extra: SessionExtra = { ...untagged, session: client };
    const { name, arguments: args, task } = request.params;
    const tool = table.find(name);
    if (task) return callAsTask(proxied.tasks, { name, args, task, ownTool: tool !== undefined }, extra);
    if (tool) {
      if (tool.name === 'registry.call') exposed.countTool(args?.server, args?.tool);
      const before = ready.version();
      const call = { server: 'hub', tool: tool.name, meta: extra._meta, session: client };
      const result = await tracedCall(call, () => table.call(tool, args, extra));
      // It changed the tools (install, uninstall, a first start): list_changed went out, so the
      // result waits until the client has the new listing, bounded for clients that never re-list.
      const after = ready.version();
      if (after !== before && client.initialized()) await ready.relisted(after, relistWaitMs, extra.signal);
      return result;
    }
    let forward = proxied.find(name);
    if (!forward) {
      // Perhaps installed by another hub since this one last looked.
      await proxied.refresh?.();
      forward = proxied.find(name);
    }
    if (forward) {
      exposed.countName(name);
      return forward(args, extra);
    }
    // An MCP App's own name for its server's tool, through a host with the extension (docs/apps.md).
    const app = appRoute(client.capabilities(), proxied.routes?.(), name);
    if (typeof app === 'string') throw new RpcError(ErrorCode.InvalidParams, app);
    const appForward = app && proxied.find(app.dotted);
    if (appForward) return appForward(args, extra);
    // RpcError, not McpError: the client adds the `MCP error -32602:` prefix itself.
    throw new RpcError(
      ErrorCode.InvalidParams,
      spellText(`Unknown tool: ${name}. Call tools/list (or registry.list) to see the available tools.`, mode),
    );
  });
}
