// The dashboard's HTTP server on 127.0.0.1: the bundled page, the API and events, behind auth.
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { extname } from 'node:path';
import type { HubConfig } from '../core/config/config.js';
import { errorMessage, isHubError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { ProcessManager } from '../process/manager.js';
import type { ServerManager } from '../proxy/manager-types.js';
import type { Store } from '../store/store.js';
import { handleApi } from './api.js';
import { runAs } from '../core/actor.js';
import { createAuth } from './auth.js';
import { chartsView } from './charts.js';
import { createEventHub } from './events.js';
import { createInstallJobs } from './install-jobs.js';
import { scrub, secretValues } from './secrets.js';
import { dashboardState, type SessionInfo } from './state.js';
import { createUsageSampler } from './usage-sampler.js';

// The dashboard: node:http on 127.0.0.1 serving the page bundled at build time (dist/web), the
// JSON API (api.ts) and server-sent events (events.ts), behind auth.ts.

export interface DashboardDeps {
  readonly config: HubConfig;
  readonly log: Logger;
  readonly store: Store;
  readonly processes: ProcessManager;
  readonly servers: ServerManager;
  readonly sessions?: (() => readonly SessionInfo[]) | undefined;
}

export interface DashboardOptions {
  readonly host?: string;
  /** 0 (the default): a free port. */
  readonly port?: number;
}

export interface Dashboard {
  readonly url: string;
  /** A URL that logs one browser in, once. */
  oneTimeLoginUrl(): string;
  /** Whether a page is open, or a login was issued and not used yet (its link is not expired). */
  inUse(): boolean;
  close(): Promise<void>;
}

const BODY_LIMIT_BYTES = 256 * 1024;
const IN_USE_GRACE_MS = 5_000;
const ASSETS = new URL('../web/', import.meta.url);
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

const STATUS_OF: Record<string, number> = { INVALID_INPUT: 400, NOT_FOUND: 404, CONSENT_DECLINED: 409 };

function readBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) {
        reject(Object.assign(new Error(`The request body is over ${BODY_LIMIT_BYTES} bytes.`), { status: 413 }));
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return resolve(undefined);
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(Object.assign(new Error('The request body is not JSON.'), { status: 400 }));
      }
    });
    request.on('error', reject);
  });
}

const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;

export async function createDashboard(deps: DashboardDeps, options: DashboardOptions = {}): Promise<Dashboard> {
  const host = options.host ?? '127.0.0.1';
  let port = 0;
  const auth = createAuth(() => port);
  const state = () => dashboardState(deps);
  // Secrets are read from the store once per body: a value set a moment ago is masked too.
  const scrubbed = async (text: string) => scrub(text, secretValues(await deps.store.read()));
  const events = createEventHub({ ...deps, state, scrub: scrubbed });
  const jobs = createInstallJobs({ ...deps, manager: deps.servers }, event => events.send('install', event));
  // Process CPU and memory are sampled only while a page is open.
  const sampler = createUsageSampler(deps.processes, () => events.viewers() > 0);
  const charts = () => chartsView(sampler);

  const send = async (response: ServerResponse, status: number, body: unknown) => {
    const text = await scrubbed(JSON.stringify(body));
    response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8' });
    response.end(text);
  };

  const serve = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://dashboard');
    const method = request.method ?? 'GET';
    const changesState = !['GET', 'HEAD'].includes(method);

    // The page's code is public (it ships in the package): anyone may load it; data needs a session.
    const isApi = url.pathname.startsWith('/api/');
    const refused = auth.check(request, { needsSession: isApi && url.pathname !== '/api/login', changesState });
    if (refused) {
      if (isApi) await send(response, refused.status, { error: refused.message });
      else {
        response.writeHead(refused.status, { ...SECURITY_HEADERS, 'content-type': TYPES['.html'] });
        response.end(page('Refused', refused.message));
      }
      return;
    }

    if (url.pathname === '/api/login' && method === 'POST') {
      const token = ((await readBody(request).catch(() => undefined)) as { token?: unknown } | undefined)?.token;
      const session = typeof token === 'string' ? auth.redeem(token) : undefined;
      if (session === undefined)
        await send(response, 401, { error: 'This login link was used already or has expired. Run hub-mcp ui again.' });
      else await send(response, 200, { session });
      return;
    }
    if (url.pathname === '/api/events' && method === 'GET') return events.attach(response);
    if (isApi) {
      try {
        const body = changesState ? await readBody(request) : undefined;
        const path = url.pathname.slice('/api/'.length).split('/').filter(Boolean).map(decodeURIComponent);
        await send(
          response,
          200,
          await runAs({ by: 'dashboard' }, () =>
            handleApi({ ...deps, jobs, state, charts }, { method, path, query: url.searchParams, body }),
          ),
        );
      } catch (error) {
        const status =
          (error as { status?: number }).status ?? (isHubError(error) ? (STATUS_OF[error.code] ?? 422) : 500);
        if (status === 500) deps.log.warn({ err: error }, 'dashboard: request failed');
        await send(response, status, { error: errorMessage(error), ...(isHubError(error) && { code: error.code }) });
      }
      return;
    }

    // /login is the page itself: its script redeems the token in the address.
    const file = url.pathname === '/' || url.pathname === '/login' ? 'index.html' : url.pathname.slice(1);
    if (method !== 'GET' || !/^[\w.-]+$/.test(file) || TYPES[extname(file)] === undefined) {
      response.writeHead(404, SECURITY_HEADERS);
      response.end();
      return;
    }
    try {
      const content = await readFile(new URL(file, ASSETS));
      response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': TYPES[extname(file)]! });
      response.end(content);
    } catch {
      response.writeHead(404, SECURITY_HEADERS);
      response.end();
    }
  };

  // A page between two of its requests (the login's redirect, then the event stream) has no
  // viewer yet: an open connection or a request a moment ago counts as in use too.
  let lastRequest = 0;
  const connections = new Set<Socket>();
  const server = createServer((request, response) => {
    lastRequest = Date.now();
    serve(request, response).catch((error: unknown) => {
      deps.log.warn({ err: error }, 'dashboard: response failed');
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  server.on('connection', socket => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  deps.log.info({ url: base }, 'dashboard listening');

  return {
    url: base,
    oneTimeLoginUrl: () => `${base}/login?token=${auth.issueLogin()}`,
    inUse: () =>
      events.viewers() > 0 || auth.waiting() > 0 || connections.size > 0 || Date.now() - lastRequest < IN_USE_GRACE_MS,
    async close() {
      jobs.close();
      sampler.close();
      events.close();
      server.closeAllConnections();
      await new Promise<void>(resolve => server.close(() => resolve()));
    },
  };
}
