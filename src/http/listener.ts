// The /mcp listener: one SDK transport and one hub session per Mcp-Session-Id, bounded.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { HubError } from '../core/errors.js';
import { MCP_PATH, mcpUrl } from '../core/http-endpoint.js';
import type { Logger } from '../core/logger.js';
import { createSession, type Hub, type HubCore } from '../hub.js';
import { answer, mediaType, readJson, refuse } from './body.js';
import { allowedHostnames, checkBearer, checkHost, checkOrigin, isLoopback } from './guard.js';
import { postClosed } from './abandoned.js';
import { servedCard } from './server-card.js';

// Streamable HTTP for clients configured with a URL (docs/clients.md "Streamable HTTP"): `/mcp` on node:http, one SDK
// StreamableHTTPServerTransport and hub session per Mcp-Session-Id, and the public Server Card (server-card.ts). Every
// refusal is a JSON-RPC error body with the right status, said before the body is read; nothing throws into node:http.

export interface HttpListenOptions {
  readonly host: string;
  /** 0 picks a free port (tests); the URL says which. */
  readonly port: number;
  /** The bearer token every request must carry; a function so a rotated token applies at once. */
  readonly token: string | (() => string);
  readonly log: Logger;
  /** Sessions open at once; an initialize beyond it ends the longest-idle one (503 when every one is busy). */
  readonly maxSessions?: number;
  /** Largest request body read, in bytes; more gets 413. */
  readonly maxBodyBytes?: number;
  /** A session with no request in progress and no open GET stream for this long is closed (clients that vanish without DELETE). */
  readonly sessionIdleMs?: number;
}

export interface HttpListener {
  /** http://host:port/mcp */
  readonly url: string;
  readonly port: number;
  sessionCount(): number;
  /** Stops accepting, closes every session (its children) and every open stream. */
  close(): Promise<void>;
}

const DEFAULTS = { maxSessions: 64, maxBodyBytes: 4 * 1024 * 1024, sessionIdleMs: 10 * 60_000 };

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly hub: Hub;
  /** When the last request came or the last response ended. */
  lastSeen: number;
  /** GET streams open now: a client listening for notifications is not idle. */
  streams: number;
  /** POST responses not finished yet: a long tool call is not idle either. */
  calls: number;
  closing?: Promise<void>;
}

export async function listenHttp(core: HubCore, options: HttpListenOptions): Promise<HttpListener> {
  const { host, log } = options;
  const limits = { ...DEFAULTS, ...definedOf(options) };
  const tokenNow = typeof options.token === 'function' ? options.token : () => options.token as string;
  const allowed = allowedHostnames(host);
  const sessions = new Map<string, Session>();
  let pending = 0; // initializes between createSession and onsessioninitialized
  let port = options.port;
  let closed = false;

  const closeSession = (id: string, why: string): Promise<void> => {
    const session = sessions.get(id);
    if (!session) return Promise.resolve();
    session.closing ??= (async () => {
      sessions.delete(id);
      log.info({ session: id, why, sessions: sessions.size }, 'http session closed');
      await session.transport.close().catch(() => undefined);
      await session.hub.close().catch(error => log.warn({ err: error }, 'http session did not close cleanly'));
    })();
    return session.closing;
  };

  // Full: a new client ends the session that waited longest for its client (one with no call in
  // progress; one only listening on GET before none), so vanished clients never lock others out.
  const makeRoom = (): boolean => {
    let quiet: [string, Session] | undefined;
    let listening: [string, Session] | undefined;
    for (const entry of sessions) {
      const [, session] = entry;
      if (session.calls > 0 || session.closing) continue;
      if (session.streams === 0) {
        if (!quiet || session.lastSeen < quiet[1].lastSeen) quiet = entry;
      } else if (!listening || session.lastSeen < listening[1].lastSeen) listening = entry;
    }
    const oldest = quiet ?? listening;
    if (!oldest) return false;
    void closeSession(oldest[0], `longest idle, ended for a new client (at most ${limits.maxSessions} sessions)`);
    return true;
  };

  async function openSession(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    if (sessions.size + pending >= limits.maxSessions && !makeRoom()) {
      refuse(
        res,
        503,
        -32000,
        `Too many sessions: this hub serves at most ${limits.maxSessions} HTTP sessions at once and every one has a call in progress; try again later.`,
        { 'Retry-After': '5' },
      );
      return;
    }
    pending += 1;
    const hub = createSession(core, { transport: 'http' });
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      pending -= 1;
    };
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: id => {
        settle();
        sessions.set(id, { transport, hub, lastSeen: Date.now(), streams: 0, calls: 0 });
        log.info({ session: id, sessions: sessions.size }, 'http session opened');
      },
      onsessionclosed: id => void closeSession(id, 'DELETE'),
    });
    transport.onclose = () => {
      settle();
      if (transport.sessionId !== undefined) void closeSession(transport.sessionId, 'transport closed');
      else void hub.close().catch(() => undefined);
    };
    try {
      await hub.server.connect(transport);
      await transport.handleRequest(req, res, body);
    } finally {
      // An initialize the transport refused (a bad protocol version): no session, nothing kept.
      if (transport.sessionId === undefined) {
        settle();
        await hub.close().catch(() => undefined);
      }
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (servedCard(req, res, allowed, port)) return; // needs no token; the checks that need no body come first
    const refusal =
      checkHost(req.headers.host, allowed) ??
      checkOrigin(req.headers.origin, allowed, port) ??
      checkBearer(req.headers.authorization, tokenNow());
    if (refusal) {
      log.debug({ status: refusal.status, method: req.method, url: req.url?.slice(0, 200) }, 'http request refused');
      answer(res, refusal);
      return;
    }
    const path = (req.url ?? '').split('?')[0];
    if (path !== MCP_PATH) {
      refuse(res, 404, -32000, `Not found: hub serves MCP at ${MCP_PATH} only.`);
      return;
    }
    const method = req.method ?? '';
    if (!['POST', 'GET', 'DELETE'].includes(method)) {
      refuse(res, 405, -32000, `Method not allowed: ${MCP_PATH} takes POST, GET and DELETE.`, {
        Allow: 'GET, POST, DELETE',
      });
      return;
    }
    const header = req.headers['mcp-session-id'];
    const id = Array.isArray(header) ? header[0] : header;
    const session = id === undefined ? undefined : sessions.get(id);
    if (id !== undefined && !session) {
      refuse(res, 404, -32001, 'Session not found: it ended or this hub restarted; initialize a new session.');
      return;
    }
    if (method !== 'POST') {
      if (!session) {
        refuse(res, 400, -32000, `Bad request: ${method} needs an Mcp-Session-Id header (initialize first with POST).`);
        return;
      }
      session.lastSeen = Date.now();
      if (method === 'GET') {
        session.streams += 1;
        res.once('close', () => {
          session.streams -= 1;
          session.lastSeen = Date.now();
        });
      }
      await session.transport.handleRequest(req, res);
      return;
    }
    if (mediaType(req.headers['content-type']) !== 'application/json') {
      refuse(res, 415, -32000, 'Unsupported media type: POST a JSON-RPC message with Content-Type: application/json.');
      return;
    }
    const body = await readJson(req, limits.maxBodyBytes);
    if (!body.ok) {
      refuse(res, body.status, body.code, body.message);
      return;
    }
    if (session) {
      session.lastSeen = Date.now();
      session.calls += 1;
      postClosed(res, body.value, session);
      await session.transport.handleRequest(req, res, body.value);
      return;
    }
    const messages = Array.isArray(body.value) ? body.value : [body.value];
    if (!messages.some(message => isInitializeRequest(message))) {
      refuse(
        res,
        400,
        -32000,
        'Bad request: send initialize first; every later request needs its Mcp-Session-Id header.',
      );
      return;
    }
    await openSession(req, res, body.value);
  }

  const server = createServer((req, res) => {
    if (closed) {
      refuse(res, 503, -32000, 'hub is shutting down.', { Connection: 'close' });
      return;
    }
    handle(req, res).catch(error => {
      // Never a stack trace to the client: the log has it.
      log.error({ err: error, method: req.method }, 'http request failed');
      refuse(res, 500, -32603, 'Internal error (see $HUB_HOME/logs/hub.log).');
    });
  });
  // Malformed HTTP (bad request line, oversize headers): a plain 400, the socket closed.
  server.on('clientError', (error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
    log.debug({ err: error }, 'http client error');
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, host, options.port)));
    server.listen(options.port, host, () => resolve());
  });
  server.on('error', error => log.error({ err: error }, 'http listener error'));
  port = (server.address() as AddressInfo).port;
  const url = mcpUrl(host, port);
  if (!isLoopback(host))
    log.warn(
      { host, port },
      'hub-mcp serve listens beyond this machine (non-loopback bind); the bearer token still guards every request',
    );
  log.info({ url }, 'hub-mcp serve listening');

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) {
        if (session.streams === 0 && session.calls === 0 && now - session.lastSeen > limits.sessionIdleMs)
          void closeSession(id, 'idle: its client went away');
      }
    },
    Math.min(60_000, limits.sessionIdleMs),
  );
  sweep.unref();

  return {
    url,
    port,
    sessionCount: () => sessions.size,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(sweep);
      const stopped = new Promise<void>(resolve => server.close(() => resolve()));
      await Promise.allSettled([...sessions.keys()].map(id => closeSession(id, 'listener closed')));
      // Open GET streams would hold server.close() forever.
      server.closeAllConnections();
      await stopped;
    },
  };
}

function definedOf(options: HttpListenOptions): Partial<typeof DEFAULTS> {
  const out: Partial<typeof DEFAULTS> = {};
  if (options.maxSessions !== undefined) out.maxSessions = options.maxSessions;
  if (options.maxBodyBytes !== undefined) out.maxBodyBytes = options.maxBodyBytes;
  if (options.sessionIdleMs !== undefined) out.sessionIdleMs = options.sessionIdleMs;
  return out;
}

function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  if (error.code === 'EADDRINUSE') {
    return new HubError(
      'LIMIT',
      `Port ${port} on ${host} is already in use (another hub-mcp serve, or another program: ss -ltnp 'sport = :${port}'). Choose another with --port N (--port 0 picks a free one).`,
    );
  }
  if (error.code === 'EACCES')
    return new HubError('LIMIT', `Not allowed to listen on ${host}:${port}; use a port above 1024 (--port N).`);
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
    return new HubError('INVALID_INPUT', `--host ${host} is not an address of this machine.`);
  return error;
}
