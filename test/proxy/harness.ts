// A real hub-facing Server + Client pair (in memory) around a real ServerManager and real children.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type ClientCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { onTestFinished, vi } from 'vitest';
import { loadConfig, type HubConfig } from '../../src/core/config/config.js';
import { silentLogger, type Logger } from '../../src/core/logger.js';
import { createServerManager, type ServerManager, type ServerManagerOptions } from '../../src/proxy/server-manager.js';
import { hubPaths } from '../../src/core/paths.js';
import { sdkClientSide } from '../../src/proxy/sessions/sdk-client-side.js';
import type { ServerRecord } from '../../src/store/schema.js';
import { openStore, type Store } from '../../src/store/store.js';
import { writeToolCache } from '../../src/store/tool-cache.js';
import { pickNameMode } from '../../src/core/naming.js';
import { fixture } from '../helpers/hub.js';

export const ECHO = fixture('echo-server.mjs');

let order = 0;
/** A command-mode store record running `node <script>` (or any command). */
export function commandRecord(name: string, args: string[], extra: Partial<ServerRecord> = {}): ServerRecord {
  order += 1;
  return {
    name,
    command: process.execPath,
    args,
    env: {},
    mode: 'command',
    installedAt: new Date().toISOString(),
    order,
    autoStart: false,
    ...extra,
  };
}

/**
 * For a test that watches the child from outside by its own pid (the echo fixture's `pid` tool):
 * the person's setting that runs it unsandboxed, since the sandbox's pid namespace renumbers it.
 */
export const UNSANDBOXED = { settings: { sandbox: { enabled: false } } } satisfies Partial<ServerRecord>;

/** Saves records; cached tools given inline go to tools/<name>.json, as hub keeps them. */
export async function putRecords(store: Store, ...records: ServerRecord[]): Promise<void> {
  const paths = hubPaths(dirname(store.file));
  await store.update(data => {
    for (const { tools, ...record } of records) {
      if (tools && tools.length > 0) {
        const toolsUpdatedAt = record.toolsUpdatedAt ?? new Date().toISOString();
        writeToolCache(paths, record.name, tools, toolsUpdatedAt);
        data.servers[record.name] = { ...record, toolsUpdatedAt };
      } else data.servers[record.name] = record;
    }
  });
}

export interface Harness {
  config: HubConfig;
  store: Store;
  server: Server;
  client: Client;
  manager: ServerManager;
  /** How many tools/list_changed the client received. */
  listChanged(): number;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  clientName?: string;
  /** HUB_TOOL_NAMES for this hub (default here: dotted). */
  toolNames?: 'dotted' | 'underscore' | 'auto';
  capabilities?: ClientCapabilities;
  manager?: ServerManagerOptions;
  /** hub's logger (default: silent). */
  log?: Logger;
  /** Set up client request handlers (elicitation, sampling) before it connects. */
  prepareClient?(client: Client): void;
}

/** hub as the lead wires it, reduced to the proxy: ListTools/CallTool over the manager. */
export async function startHarness(home: string, options: HarnessOptions = {}): Promise<Harness> {
  // The proxy tests read dotted names; the default (underscore) spelling is tested in naming.test.ts.
  const config = loadConfig({ HUB_HOME: home, HUB_TOOL_NAMES: options.toolNames ?? 'dotted' });
  const store = openStore(config.paths);
  const server = new Server({ name: 'hub', version: '0.0.0' }, { capabilities: { tools: { listChanged: true } } });
  const manager = createServerManager(
    { config, log: options.log ?? silentLogger, store, client: sdkClientSide(server) },
    { graceMs: 500, ...options.manager },
  );
  const mode = () => pickNameMode(config.toolNames);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: manager.list(mode()) }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const forward = manager.find(request.params.name);
    if (!forward) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return forward(request.params.arguments, extra);
  });
  const client = new Client(
    { name: options.clientName ?? 'proxy-test', version: '1.0.0' },
    { capabilities: options.capabilities ?? {} },
  );
  let changes = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes += 1;
  });
  options.prepareClient?.(client);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await manager.close();
    await client.close();
  };
  onTestFinished(close);
  return {
    config,
    store,
    server,
    client,
    manager,
    listChanged: () => changes,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close,
  };
}

/** Lines of a spawn log written by the fixtures (one pid per start). */
export function spawnCount(file: string): number {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

/** Waits for a condition on a loaded machine (2 shared cores): generous, never a timing assertion. */
export const until = <T>(check: () => T | Promise<T>, timeout = 15_000): Promise<T> =>
  vi.waitFor(check, { timeout, interval: 50 });
