import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type ClientCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Logger } from '../logger.js';
import { CachedToolSchema, type CachedTool, type ServerRecord } from '../store/schema.js';
import { HUB_VERSION } from '../version.js';
import { childEnvironment } from './child-env.js';
import { ChildProcessTransport } from './child-transport.js';
import { FastCalls, type FastCallOptions } from './fast-calls.js';
import { START_MARKER, ServerLog } from './server-log.js';

// A person answers sampling and elicitation: allow them time; the child cancels when it gives up.
const RELAY_TIMEOUT_MS = 30 * 60_000;

const ToolsPageSchema = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

export interface ConnectOptions {
  record: ServerRecord;
  logFile: string;
  /** Hub's server facing the client: child requests are relayed to it. */
  hub: Server;
  log: Logger;
  startTimeoutMs: number;
  graceMs?: number;
  onToolsChanged(): void;
  onExit(code: number | null, signal: NodeJS.Signals | null): void;
}

// The child may ask for what hub's client declared, and nothing more.
function relayedCapabilities(hub: Server): ClientCapabilities {
  const client = hub.getClientCapabilities() ?? {};
  const capabilities: ClientCapabilities = {};
  if (client.sampling) capabilities.sampling = client.sampling;
  if (client.elicitation) capabilities.elicitation = client.elicitation;
  if (client.roots) capabilities.roots = { ...client.roots };
  return capabilities;
}

/** One running child MCP server: its process group, an SDK Client, and the fast call lane. */
export class ChildConnection {
  private constructor(
    private readonly client: Client,
    private readonly transport: ChildProcessTransport,
    private readonly fast: FastCalls,
    readonly startedAt: number,
  ) {}

  static async open(options: ConnectOptions): Promise<ChildConnection> {
    const { record, hub, log } = options;
    const serverLog = new ServerLog(options.logFile);
    serverLog.write(
      `${START_MARKER}${[record.command, ...record.args].join(' ')} at ${new Date().toISOString()} ---\n`,
    );
    const transport = new ChildProcessTransport({
      command: record.command,
      args: record.args,
      env: childEnvironment(record.env),
      cwd: record.cwd,
      log: serverLog,
      ...(options.graceMs === undefined ? {} : { graceMs: options.graceMs }),
    });
    const fast = new FastCalls(transport);
    transport.onexit = (code, signal) => {
      fast.failAll(new Error(`the server process exited (${signal ?? `code ${code}`}) while the call was in flight`));
      options.onExit(code, signal);
    };
    const capabilities = relayedCapabilities(hub);
    const client = new Client({ name: 'hub', version: HUB_VERSION }, { capabilities });
    if (capabilities.sampling) {
      client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
        hub.createMessage(request.params, { signal: extra.signal, timeout: RELAY_TIMEOUT_MS }),
      );
    }
    if (capabilities.elicitation) {
      client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
        hub.elicitInput(request.params, { signal: extra.signal, timeout: RELAY_TIMEOUT_MS }),
      );
    }
    if (capabilities.roots) {
      client.setRequestHandler(ListRootsRequestSchema, (request, extra) =>
        hub.listRoots(request.params, { signal: extra.signal }),
      );
    }
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => options.onToolsChanged());
    client.onerror = error => log.debug({ server: record.name, err: error.message }, 'child protocol error');
    const connection = new ChildConnection(client, transport, fast, Date.now());
    try {
      await client.connect(transport, { timeout: options.startTimeoutMs });
    } catch (error) {
      await transport.close();
      throw error;
    }
    return connection;
  }

  get pid(): number | undefined {
    return this.transport.pid;
  }

  get inFlight(): number {
    return this.fast.inFlight;
  }

  /** The child's tools (every page); entries that are not valid tools are skipped. */
  async listTools(timeoutMs: number): Promise<CachedTool[]> {
    const tools: CachedTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.request(
        { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
        ToolsPageSchema,
        { timeout: timeoutMs },
      );
      for (const entry of page.tools) {
        const parsed = CachedToolSchema.safeParse(entry);
        if (parsed.success) tools.push(parsed.data);
      }
      cursor = page.nextCursor;
    } while (cursor !== undefined && tools.length < 10_000);
    return tools;
  }

  callTool(tool: string, args: Record<string, unknown> | undefined, options: FastCallOptions): Promise<CallToolResult> {
    return this.fast.call(tool, args, options);
  }

  /** Tells the root list changed (hub's client said so). */
  notifyRootsChanged(): void {
    this.client.sendRootsListChanged().catch(() => undefined);
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
