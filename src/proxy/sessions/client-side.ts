// ClientSide: what the proxy needs from whoever faces the MCP client, and noClient for the CLI.
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  ClientCapabilities,
  CreateMessageRequest,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequest,
  ElicitResult,
  ListRootsRequest,
  ListRootsResult,
  LoggingLevel,
  LoggingMessageNotification,
  ServerNotification,
  ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { RpcError } from '../../wire/rpc-error.js';

/** The extra the SDK passes a request handler on the client's side. */
export type ServerExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The lists a client is told changed. */
export type ListKind = 'tools' | 'prompts' | 'resources';

/** A child's request relayed to the client: the child's signal cancels it. */
export interface RelayOptions {
  readonly signal: AbortSignal;
  readonly timeout?: number;
  /** The client's request that caused it (a Streamable HTTP session answers on that request's stream). */
  readonly relatedRequestId?: string | number;
  /** The child asking (a shared hub routes its request to the one session whose call caused it). */
  readonly from?: RelaySource;
  /** The session the request belongs to (a task's owner, the caller of a prompts/get): it goes there, calls in flight or not. */
  readonly session?: object | undefined;
}

/** Which sessions have calls in flight to one child, and which session started it (server-slot.ts). */
export interface RelaySource {
  readonly server: string;
  /** Calls in flight per session (keyed by the session's ClientSide, as Caller.session carries it). */
  readonly callers: ReadonlyMap<object, number>;
  readonly starter: object | undefined;
}

/**
 * What the proxy needs from whoever faces the MCP client: the stdio hub (sdk-client-side.ts over
 * its SDK Server), a Streamable HTTP session, or nobody at all (the CLI, noClient). The proxy
 * and the children it runs see the client only through this.
 */
export interface ClientSide {
  /** The client's environment (its entry's, on a shared hub): a per-session server's base variables (slots.ts). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** True once the client sent notifications/initialized (nothing is announced before that). */
  initialized(): boolean;
  /** Runs once the client has initialized: at once if it already has, never if there is no client. */
  whenInitialized(run: () => void): void;
  /** What the client declared at initialize; undefined before, and with no client. */
  capabilities(): ClientCapabilities | undefined;
  /** notifications/<kind>/list_changed to the client. */
  sendListChanged(kind: ListKind): Promise<void>;
  /** notifications/resources/updated to the client (it subscribed to uri). */
  sendResourceUpdated(uri: string): Promise<void>;
  /** notifications/message to the client (a child's log message, logger set to the server's name); below the level it set, nothing. */
  sendLog(params: LoggingMessageNotification['params']): Promise<void>;
  /** logging/setLevel from this client (one session; hub.ts calls it). */
  setLogLevel?(level: LoggingLevel): void;
  /** The level this client set; for many sessions, the most verbose any of them set (children send that much). */
  logLevel?(): LoggingLevel | undefined;
  /** A child's sampling/createMessage, relayed. */
  createMessage(
    params: CreateMessageRequest['params'],
    options: RelayOptions,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools>;
  /** A child's elicitation/create, relayed. */
  elicitInput(params: ElicitRequest['params'], options: RelayOptions): Promise<ElicitResult>;
  /** A child's roots/list, relayed. */
  listRoots(params: ListRootsRequest['params'], options: RelayOptions): Promise<ListRootsResult>;
  /** Called each time the client sends notifications/roots/list_changed. */
  onRootsListChanged(listener: () => void): void;
  /** `capabilities.extensions` a child started now is offered (extensions.ts); absent or undefined: none. */
  extensionsOffered?(): Record<string, Record<string, unknown>> | undefined;
  /** Whether this session subscribed to uri (a shared hub sends resources/updated only where it did); absent: yes. */
  wantsResource?(uri: string): boolean;
}

// Never reached through the proxy (a child's request is refused on capabilities first); kept as
// the same answer for any other caller.
const nobody = (what: string) =>
  Promise.reject(new RpcError(-32601, `No client is connected to hub, so nothing can answer ${what}.`));

/** No client at all (the CLI, an import's probe): nothing is announced and nothing is relayed. */
export const noClient: ClientSide = {
  initialized: () => false,
  whenInitialized: () => undefined,
  capabilities: () => undefined,
  sendListChanged: () => Promise.resolve(),
  sendResourceUpdated: () => Promise.resolve(),
  sendLog: () => Promise.resolve(),
  createMessage: () => nobody('sampling'),
  elicitInput: () => nobody('elicitation'),
  listRoots: () => nobody('roots/list'),
  onRootsListChanged: () => undefined,
};
