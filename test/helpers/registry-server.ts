// A real node:http server on 127.0.0.1 speaking the official MCP Registry API v0.1
// (`/v0.1/servers`) and the npm registry (`<npm>/-/v1/search`, `<npm>/<name>/latest`) from the
// JSON under test/fixtures/registry. Each route can be switched to misbehave: an HTTP 500, an
// answer that never comes (until close), a body that is not JSON, or JSON of the wrong shape.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import getPort from 'get-port';
import { fixture } from './hub.js';

export type RouteName = 'official' | 'npmSearch' | 'npmManifest';
export type RouteMode = 'ok' | 'error500' | 'slow' | 'malformed' | 'wrong-shape';

interface NpmFixture {
  search: { description?: string; keywords?: string[] };
  manifest?: Record<string, unknown>;
}

export interface RegistryServer {
  /** For HUB_REGISTRY_URL. */
  readonly registryUrl: string;
  /** For HUB_NPM_REGISTRY (a path-prefixed registry, like a company mirror). */
  readonly npmRegistry: string;
  /** Every request as path + query, in arrival order. */
  readonly requests: string[];
  setMode(route: RouteName, mode: RouteMode): void;
  close(): Promise<void>;
}

const loadJson = <T>(name: string): T => JSON.parse(readFileSync(fixture(`registry/${name}`), 'utf8')) as T;
const words = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(word => word && word !== 'mcp');

export async function startRegistryServer(): Promise<RegistryServer> {
  const official = loadJson<Array<{ server: { name?: string } }>>('official-servers.json');
  const npm = loadJson<Record<string, NpmFixture>>('npm-packages.json');
  const modes: Record<RouteName, RouteMode> = { official: 'ok', npmSearch: 'ok', npmManifest: 'ok' };
  const requests: string[] = [];

  const send = (response: ServerResponse, route: RouteName, status: number, body: unknown) => {
    const mode = modes[route];
    if (mode === 'slow') return; // held open until close(): longer than any search timeout
    if (mode === 'error500')
      return void response.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
    if (mode === 'malformed')
      return void response.writeHead(200, { 'content-type': 'application/json' }).end('{"servers": [{"server": ');
    const payload = mode === 'wrong-shape' ? { items: 'not what you expect' } : body;
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
  };

  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    requests.push(`${url.pathname}${url.search}`);
    if (url.pathname === '/v0.1/servers') {
      const search = (url.searchParams.get('search') ?? '').toLowerCase();
      const limit = Number(url.searchParams.get('limit') ?? 30);
      const servers = official
        .filter(entry => (entry.server.name ?? search).toLowerCase().includes(search))
        .slice(0, limit);
      return send(response, 'official', 200, { servers, metadata: { count: servers.length } });
    }
    if (url.pathname === '/npm/-/v1/search') {
      const terms = words(url.searchParams.get('text') ?? '');
      const size = Number(url.searchParams.get('size') ?? 20);
      const objects = Object.entries(npm)
        .filter(([name, entry]) => {
          const haystack = new Set([
            ...words(name),
            ...words(entry.search.description ?? ''),
            ...(entry.search.keywords ?? []).flatMap(words),
          ]);
          return terms.some(term => haystack.has(term));
        })
        .slice(0, size)
        .map(([name, entry]) => ({
          package: { name, version: String(entry.manifest?.version ?? '0.0.0'), ...entry.search },
          score: { final: 1 },
        }));
      return send(response, 'npmSearch', 200, { objects, total: objects.length, time: new Date(0).toUTCString() });
    }
    const manifest = /^\/npm\/(.+)\/latest$/.exec(url.pathname);
    if (manifest) {
      const name = decodeURIComponent(manifest[1] ?? '');
      const entry = npm[name];
      if (!entry?.manifest)
        return void response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
      return send(response, 'npmManifest', 200, { name, description: entry.search.description, ...entry.manifest });
    }
    response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such route"}');
  };

  const server = createServer(handle);
  const port = await getPort({ host: '127.0.0.1' });
  await new Promise<void>(resolve => server.listen(port, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${port}`;
  return {
    registryUrl: base,
    npmRegistry: `${base}/npm`,
    requests,
    setMode: (route, mode) => void (modes[route] = mode),
    close: () =>
      new Promise<void>(resolve => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
