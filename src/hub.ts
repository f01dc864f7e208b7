import type { LineKind } from './proxy/hub-stdio-transport.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { HubConfig } from './config.js';
import type { Logger } from './logger.js';
import { RpcError } from './proxy/rpc-error.js';
import { currentStoreHealth } from './store/health.js';
import type { Store } from './store/store.js';
import type { ToolDeps } from './tools/define.js';
import { pickNameMode, type NameMode } from './tools/naming.js';
import { instructionsSectionFromDb } from './proxy/instructions-section.js';
import { createProcessTools } from './tools/processes.js';
import { createRegistryTools } from './tools/registry.js';
import { createToolTable } from './tools/table.js';
import { HUB_VERSION } from './version.js';

export interface Hub {
  readonly server: Server;
  /** The transport-level lane for proxied tools/call (see proxy/fast-path.ts), when there is one. */
  fastPath(sendRaw: (line: string, kind: LineKind) => Promise<void>): ((message: Record<string, unknown>) => boolean) | undefined;
  /** The proxied tools listed now (dotted, as JSON): what a client that listed earlier compares against. */
  proxiedSignature(): string;
  /** Closes child MCP servers; leaves start_process processes running (they are detached). */
  close(): Promise<void>;
}

const INSTRUCTIONS =
  'hub finds, installs and runs other MCP servers (registry.search → registry.install; their tools then appear as <server>.<tool>, ' +
  'or call them with registry.call after registry.list {server}) and runs long-lived dev processes that survive restarts ' +
  '(start_process with wait_for, list_processes, get_process_logs with a cursor, kill_process, get_free_port).';

// The SDK's default validator (an Ajv instance, used only for elicitation results) is built on
// first use instead of at start.
function lazyAjvValidator(): jsonSchemaValidator {
  let ajv: AjvJsonSchemaValidator | undefined;
  return { getValidator: schema => (ajv ??= new AjvJsonSchemaValidator()).getValidator(schema) };
}

// The factory: no I/O at import, everything stateful built here from its dependencies.
export function createHub({ config, log, store }: { config: HubConfig; log: Logger; store: Store }): Hub {
  const server = new Server(
    { name: 'hub', title: 'hub', version: HUB_VERSION },
    {
      capabilities: { tools: { listChanged: true } },
      // Installed servers' instructions as db.json holds them now (the cold-start lane adds the same).
      instructions: INSTRUCTIONS + instructionsSectionFromDb(config.paths.db),
      jsonSchemaValidator: lazyAjvValidator(),
    },
  );
  let initialized = false;
  server.oninitialized = () => {
    initialized = true;
  };
  const deps: ToolDeps = { config, log, store, server, isInitialized: () => initialized };
  const processGroup = createProcessTools(deps);
  const registryGroup = createRegistryTools(deps);
  const table = createToolTable([...registryGroup.tools, ...processGroup.tools], log, config.resultCapBytes, async () => (await currentStoreHealth(config.paths, () => store.read())).warning);
  const proxied = registryGroup.proxied;

  // Decided per session from the client's name at initialize (SPEC "Tool names").
  const mode = (): NameMode => pickNameMode(config.toolNames, server.getClientVersion()?.name);

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    await proxied.refresh?.();
    return { tools: [...table.list(mode()), ...proxied.list(mode())] };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params;
    const tool = table.find(name);
    if (tool) return table.call(tool, args, extra);
    let forward = proxied.find(name);
    if (!forward) {
      // Perhaps installed by another hub since this one last looked.
      await proxied.refresh?.();
      forward = proxied.find(name);
    }
    if (forward) return forward(args, extra);
    // RpcError, not McpError: the client adds the `MCP error -32602:` prefix itself.
    throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}. Call tools/list (or registry.list) to see the available tools.`);
  });

  return {
    server,
    fastPath: sendRaw => proxied.fastPath?.(sendRaw),
    proxiedSignature: () => JSON.stringify(proxied.list('dotted')),
    async close() {
      await Promise.allSettled([registryGroup.close(), processGroup.close?.()]);
      await server.close().catch(() => undefined);
    },
  };
}
