// Connecting to a remote server: Streamable HTTP first, the older HTTP+SSE when refused.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { HubError } from '../../core/errors.js';
import type { ServerRecord } from '../../store/schema.js';
import { expandHeaders } from './remote-headers.js';
import type { ServerLog } from './server-log.js';

export type RemoteSpec = NonNullable<ServerRecord['remote']>;
export type RemoteTransportKind = 'streamable-http' | 'sse';

export interface RemoteConnectOptions {
  readonly remote: RemoteSpec;
  /** The record's env: what `${VAR}` in a header value reads first. */
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly log: ServerLog;
  /** OAuth for servers that answer 401 (absent when the headers carry their own Authorization). */
  readonly authProvider?: OAuthClientProvider | undefined;
  /** The fetch the transports use (the OAuth provider's, which notes a step-up); default: fetch. */
  readonly fetch?: FetchLike | undefined;
}

// The spec's backwards compatibility: a POST of initialize refused with a 4xx (404, 405, 400…)
// means a server of the older HTTP+SSE transport; 401 and 403 are about credentials, not transport.
const wantsSse = (error: unknown): boolean =>
  error instanceof StreamableHTTPError &&
  error.code !== undefined &&
  error.code >= 400 &&
  error.code < 500 &&
  error.code !== 401 &&
  error.code !== 403;

function parseUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new HubError('INVALID_INPUT', `the server URL ${JSON.stringify(url)} is not a valid URL.`);
  }
}

/**
 * Connects the Client to a remote server: Streamable HTTP first and, when the server refuses it
 * with a 4xx, the legacy HTTP+SSE transport (unless the record pins one). Returns which was used.
 */
export async function connectRemote(client: Client, options: RemoteConnectOptions): Promise<RemoteTransportKind> {
  const { remote, log } = options;
  const url = parseUrl(remote.url);
  const headers = expandHeaders(remote.headers ?? {}, options.env);
  const auth = options.authProvider && {
    authProvider: options.authProvider,
    ...(options.fetch && { fetch: options.fetch }),
  };
  if (remote.transport !== 'sse') {
    const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers }, ...auth });
    try {
      await connectWith(client, transport, options.timeoutMs);
      return 'streamable-http';
    } catch (error) {
      await client.close().catch(() => undefined);
      if (remote.transport === 'streamable-http' || !wantsSse(error)) throw error;
      const { code, message } = error as StreamableHTTPError;
      log.write(`Streamable HTTP was refused (HTTP ${code}: ${message.slice(0, 200)}); trying HTTP+SSE\n`);
    }
  }
  const sse = new SSEClientTransport(url, { requestInit: { headers }, ...auth });
  try {
    await connectWith(client, sse, options.timeoutMs);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return 'sse';
}

async function connectWith(client: Client, transport: Transport, timeoutMs: number): Promise<void> {
  // The SSE transport's start() waits for the endpoint event with no deadline of its own.
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(new HubError('CHILD_TIMEOUT', `the server did not complete the MCP handshake within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([client.connect(transport, { timeout: timeoutMs }), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** A Streamable HTTP server forgot the session (it restarted): the spec says start a new one. */
export const sessionLost = (error: unknown): boolean => error instanceof StreamableHTTPError && error.code === 404;
