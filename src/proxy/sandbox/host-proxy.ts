// The HTTP(S) proxy of a server limited to named hosts: those go through, the rest refused and logged.
import { lookup } from 'node:dns/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, isIP, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The proxy of a server whose network is a list of named hosts (docs/sandbox.md): an HTTP proxy
// on a unix socket, bound into the sandbox (whose network namespace has no interface but its
// loopback) and reached there through net-relay.ts. CONNECT (HTTPS, any TCP) and plain HTTP to a
// named host go through; anything else gets 403 and a line in the server's log. A name that
// resolves to this machine's loopback is refused unless the name granted is loopback itself
// (`localhost`, `127.0.0.1`), so a DNS answer cannot turn a grant into localhost.

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);
const CONNECT_TIMEOUT_MS = 10_000;

export interface HostProxy {
  /** The unix socket on this machine (bound into the sandbox). */
  readonly socket: string;
  close(): void;
}

/** host matches a granted entry: `name`, `*.name` (a subdomain), either with an optional `:port`. */
export function allowedBy(allow: readonly string[], host: string, port: number): string | undefined {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  return allow.find(entry => {
    const [pattern = '', only] = entry.toLowerCase().split(/:(?=\d+$)/);
    if (only !== undefined && Number(only) !== port) return false;
    return pattern.startsWith('*.') ? name.endsWith(pattern.slice(1)) : name === pattern.replace(/^\[|\]$/g, '');
  });
}

const isLoopback = (address: string) =>
  address.startsWith('127.') || address === '::1' || address === '::ffff:127.0.0.1';

/** Where host:port may be reached, or why not. */
async function resolveAllowed(
  allow: readonly string[],
  host: string,
  port: number,
): Promise<{ address: string } | { refused: string }> {
  const entry = allowedBy(allow, host, port);
  if (entry === undefined) return { refused: `not in its network allow-list (${allow.join(', ')})` };
  const bare = host.replace(/^\[|\]$/g, '');
  let address = bare;
  if (isIP(bare) === 0) {
    try {
      address = (await lookup(bare)).address;
    } catch (error) {
      return { refused: `${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? 'lookup failed'})` };
    }
  }
  if (isLoopback(address) && !LOOPBACK_NAMES.has(entry.toLowerCase().split(/:(?=\d+$)/)[0] ?? ''))
    return { refused: `${host} resolves to this machine (${address}); grant "localhost" for that` };
  return { address };
}

export function startHostProxy(allow: readonly string[], log: (line: string) => void): Promise<HostProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'hub-net-'));
  const socket = join(dir, 'proxy.sock');
  const refuse = (what: string, why: string) => log(`sandbox: network refused ${what}: ${why}\n`);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      let url: URL;
      try {
        url = new URL(req.url ?? '');
      } catch {
        res.writeHead(400).end('hub sandbox: a proxy request needs an absolute http:// URL\n');
        return;
      }
      const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
      const found = await resolveAllowed(allow, url.hostname, port);
      if ('refused' in found) {
        refuse(`${url.hostname}:${port}`, found.refused);
        res.writeHead(403).end(`hub sandbox: ${url.hostname}:${port} refused: ${found.refused}\n`);
        return;
      }
      const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: url.host };
      delete headers['proxy-connection'];
      const upstream = httpRequest(
        { host: found.address, port, path: `${url.pathname}${url.search}`, method: req.method, headers },
        reply => {
          res.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(res);
        },
      );
      upstream.setTimeout(CONNECT_TIMEOUT_MS, () => upstream.destroy(new Error('timed out')));
      upstream.on('error', error => {
        if (!res.headersSent) res.writeHead(502).end(`hub sandbox: ${url.host}: ${error.message}\n`);
        else res.destroy();
      });
      req.pipe(upstream);
    })();
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    void (async () => {
      client.on('error', () => undefined);
      const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(req.url ?? '');
      if (match === null) {
        client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
        return;
      }
      const [, host = '', portText = ''] = match;
      const port = Number(portText);
      const found = await resolveAllowed(allow, host, port);
      if ('refused' in found) {
        refuse(`${host}:${port}`, found.refused);
        client.end(`HTTP/1.1 403 Forbidden\r\n\r\nhub sandbox: ${host}:${port} refused: ${found.refused}\n`);
        return;
      }
      const upstream = connect({ host: found.address, port, timeout: CONNECT_TIMEOUT_MS }, () => {
        upstream.setTimeout(0);
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('timeout', () => upstream.destroy(new Error('timed out')));
      upstream.on('error', error => client.end(`HTTP/1.1 502 Bad Gateway\r\n\r\n${error.message}\n`));
      client.on('close', () => upstream.destroy());
    })();
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () =>
      resolve({
        socket,
        close: () => {
          server.close();
          server.closeAllConnections();
          rmSync(dir, { recursive: true, force: true });
        },
      }),
    );
  });
}
