// One connection to one child, local or remote: open, list, call, close.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type CallToolResult,
  type ClientCapabilities,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { z } from 'zod';
import type { Logger } from '../../core/logger.js';
import type { CachedTool, ServerRecord } from '../../store/schema.js';
import { HUB_VERSION } from '../../core/version.js';
import { childEnvironment } from './env.js';
import { exitedEarly, watchForNotMcp } from './not-mcp.js';
import { openRemote } from './remote-open.js';
import { ChildProcessTransport } from './transport.js';
import type { ToolReply } from '../../wire/caller.js';
import { FastCalls, type FastCallOptions } from '../../wire/fast-calls.js';
import { launchFor, type SandboxContext } from '../sandbox/launch.js';
import { strayResponses } from './stray-responses.js';
import { wireChild, type AskOptions } from './asks.js';
import { START_MARKER, ServerLog } from './server-log.js';
import { guardExtensionDeclarations } from './extension-intake.js';
import { noteIssues, takeTools } from './tool-intake.js';
import { listSurface } from './surface.js';
import type { SurfaceIntake } from './surface-intake.js';
import { withoutUncallableTasks } from '../listing/task-listing.js';
import { withExtensionTaskSupport } from '../listing/extension-task-listing.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { eraRequest, eraToolCall, modernChild, type ModernChild } from './modern-calls.js';

// A child that printed only lines that are not JSON-RPC gets this long to answer before it is
// taken for something other than an MCP server (a banner right before speaking MCP is fine).
export const NOT_MCP_GRACE_MS = 5_000;

// Read loosely: each tool is checked on its own (tool-intake.ts), never the whole list at once.
const ToolsPageSchema = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });
const MAX_PAGES = 100;

/** How a child is opened (what it asks of the person and its notifications: AskOptions). */
export interface ConnectOptions extends AskOptions {
  record: ServerRecord;
  logFile: string;
  startTimeoutMs: number;
  graceMs?: number;
  notMcpGraceMs?: number;
  /** Where a remote server's OAuth state is kept (HUB_HOME/auth/<name>.json); no OAuth without it. */
  authFile?: (name: string) => string;
  /** HUB_HOME's paths and config.json's switch for the child's sandbox (proxy/sandbox/launch.ts). */
  sandbox?: SandboxContext;
  /** Where the child's base variables come from (child/env.ts): a per-session server's session; else the hub's. */
  baseEnv?: Readonly<Record<string, string | undefined>>;
  onExit(code: number | null, signal: NodeJS.Signals | null): void;
  /** A child with no process (a remote server) can no longer be reached: restart it as after a crash. */
  onLost?(reason: string): void;
}

/** What every child of one manager is opened with (the rest is per server and per start). */
export type ChildSettings = Omit<
  ConnectOptions,
  | 'record'
  | 'logFile'
  | 'log'
  | 'startTimeoutMs'
  | 'from'
  | 'onAsks'
  | 'onToolsChanged'
  | 'onSurfaceChanged'
  | 'onExit'
  | 'onLost'
>;

// The stdio fast lane or a remote session's SDK lane, and the process behind it (none for a remote).
type CallLane = Pick<FastCalls, 'inFlight' | 'call' | 'callRaw'>;
type ChildProcessInfo = Pick<ChildProcessTransport, 'pid' | 'exit'>;
const NO_PROCESS: ChildProcessInfo = { pid: undefined, exit: undefined };

// Every child is started with the same capabilities, whichever client's session starts it, so
// its tool list does not depend on that client (a list that did caused list_changed in other
// sessions). A request the current client cannot take is refused when it comes.
const CHILD_CAPABILITIES: ClientCapabilities = {
  sampling: {},
  elicitation: { form: {}, url: {} },
  roots: { listChanged: true },
};
// Plus the extensions any session asked for so far (sessions/extensions.ts): they only grow.
const childCapabilities = (options: ConnectOptions): ClientCapabilities => {
  const extensions = options.client.extensionsOffered?.();
  return extensions ? { ...CHILD_CAPABILITIES, extensions } : CHILD_CAPABILITIES;
};

/** One running child MCP server: its process group, an SDK Client, and the fast call lane. */
export class ChildConnection {
  #protocolVersion: string | undefined;
  #taskWaits = 0;

  private constructor(
    private readonly client: Client,
    private readonly transport: ChildProcessInfo,
    private readonly fast: CallLane,
    readonly startedAt: number,
    private readonly name: string,
    private readonly log: Logger,
    /** How a connection without a process ends (a remote session); default: close the Client. */
    private readonly closeLink?: () => Promise<void>,
    private readonly modern?: ModernChild,
  ) {}

  static async open(options: ConnectOptions): Promise<ChildConnection> {
    // A remote server: the same Client and relays over HTTP (remote-open.ts), with no process.
    if (options.record.remote)
      return openRemote(options, options.record.remote, {
        newClient: () =>
          new Client({ name: 'hub', version: HUB_VERSION }, { capabilities: childCapabilities(options) }),
        assemble: (client, session, serverLog, close) => {
          const connection = new ChildConnection(
            client,
            NO_PROCESS,
            session,
            Date.now(),
            options.record.name,
            options.log,
            close,
          );
          wireChild(client, connection, options, serverLog);
          return { connection, opened: () => (connection.#protocolVersion = session.protocolVersion) };
        },
      });
    const { record, log } = options;
    const serverLog = new ServerLog(options.logFile);
    serverLog.write(
      `${START_MARKER}${[record.command, ...record.args].join(' ')} at ${new Date().toISOString()} ---\n`,
    );
    const env = childEnvironment(record.env, options.baseEnv);
    const launch = await launchFor({
      record,
      env,
      sandbox: options.sandbox,
      client: options.client,
      from: options.from,
    });
    serverLog.write(`${launch.note}\n`);
    const transport = new ChildProcessTransport({
      ...launch,
      cwd: record.cwd,
      log: serverLog,
      ...(options.graceMs === undefined ? {} : { graceMs: options.graceMs }),
    });
    const strays = strayResponses(log, record.name);
    const fast = new FastCalls(transport, strays.response);
    guardExtensionDeclarations(transport, problem => {
      serverLog.write(`hub: ${problem}\n`);
      log.warn({ server: record.name, problem }, 'the server declared an extension wrongly');
    });
    transport.onexit = (code, signal) => {
      fast.failAll(new Error(`the server process exited (${signal ?? `code ${code}`}) while the call was in flight`));
      options.onExit(code, signal);
    };
    const capabilities = childCapabilities(options);
    const client = new Client({ name: 'hub', version: HUB_VERSION }, { capabilities });
    const modern = modernChild(transport, record, options.client, capabilities, client);
    const connection = new ChildConnection(client, transport, fast, Date.now(), record.name, log, undefined, modern);
    // The SDK Client tells its transport the revision it negotiated; that is how hub learns it.
    (modern.eras as Transport).setProtocolVersion = version => (connection.#protocolVersion = version);
    wireChild(client, connection, options, serverLog, strays);
    const notMcp = watchForNotMcp(transport, options.notMcpGraceMs ?? NOT_MCP_GRACE_MS);
    try {
      await Promise.race([client.connect(modern.eras, { timeout: options.startTimeoutMs }), notMcp.verdict]);
    } catch (error) {
      // Read before close(), which ends the process itself.
      const exit = transport.exit;
      await transport.close();
      throw exit && transport.messages === 0 ? exitedEarly(exit) : error;
    } finally {
      notMcp.stop();
    }
    return connection;
  }

  /** How the process ended, once it has. */
  get exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.transport.exit;
  }

  /** The protocol revision negotiated with the child at initialize. */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  /** The instructions the child sent at initialize. */
  get instructions(): string | undefined {
    return this.client.getInstructions();
  }

  get pid(): number | undefined {
    return this.transport.pid;
  }

  get inFlight(): number {
    return this.fast.inFlight + this.#taskWaits;
  }

  /** A task of this child is being waited on (tasks/run.ts, tasks/result): its requests to the person are relayed meanwhile. */
  waitingOnTask(): () => void {
    this.#taskWaits += 1;
    let done = false;
    return () => {
      if (!done) this.#taskWaits -= 1;
      done = true;
    };
  }

  /**
   * The child's tools (every page), each read on its own and bounded (tool-intake.ts); what was
   * skipped or cut is logged and noted on the returned list (issuesOf).
   */
  async listTools(timeoutMs: number): Promise<CachedTool[]> {
    const entries: unknown[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await this.client.request(
        { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
        ToolsPageSchema,
        { timeout: timeoutMs },
      );
      entries.push(...page.tools);
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== undefined && pages < MAX_PAGES);
    const taken = withExtensionTaskSupport(takeTools(entries), this.capabilities);
    const { tools, issues } = withoutUncallableTasks(taken, this.capabilities);
    if (issues.length > 0)
      this.log.warn({ server: this.name, issues }, 'some tools of this server were skipped or cut');
    return noteIssues(tools, issues);
  }

  /** Its prompts, resources and templates, each list complete and bounded (surface-intake.ts). */
  listSurface(timeoutMs: number): Promise<SurfaceIntake> {
    return listSurface(this.client, timeoutMs);
  }

  /** What the child declared at initialize. */
  get capabilities(): ServerCapabilities {
    return this.client.getServerCapabilities() ?? {};
  }

  /**
   * A request through the child's SDK Client (prompts/get, resources/read, completion/complete…):
   * the SDK sends progress tokens, cancellation and timeouts as for any request.
   */
  request<T extends z.ZodType>(
    request: { method: string; params?: Record<string, unknown> },
    schema: T,
    /** session: the session that asked (a 2026-07-28 child's questions go to it). */
    options: RequestOptions & { session?: object },
  ): Promise<z.infer<T>> {
    return eraRequest(this.modern, this.client, request, schema, options);
  }

  callTool(tool: string, args: Record<string, unknown> | undefined, options: FastCallOptions): Promise<CallToolResult> {
    return eraToolCall(this.modern, options, given => this.fast.call(tool, args, given));
  }

  /** The same call for a caller that writes the answer as bytes (the fast path): the child's result line unparsed when it qualifies. */
  callToolRaw(tool: string, args: Record<string, unknown> | undefined, options: FastCallOptions): Promise<ToolReply> {
    return eraToolCall<ToolReply>(this.modern, options, given => this.fast.callRaw(tool, args, given));
  }

  /** Tells the root list changed (hub's client said so). */
  notifyRootsChanged(): void {
    this.client.sendRootsListChanged().catch(() => undefined);
  }

  close(): Promise<void> {
    return this.closeLink ? this.closeLink() : this.client.close();
  }
}
