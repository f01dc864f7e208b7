// A real npm registry over HTTPS on 127.0.0.1, signed by a test CA made with openssl at test
// time, serving the packages under test/fixtures/npm-packages (packument, tarball, search and
// /latest). It also writes an npm "global" config naming the registry and the CA, and the env
// that makes npm (and hub) use it: NPM_CONFIG_PREFIX (so the global npmrc is <prefix>/etc/npmrc,
// npm's default place), a temp user npmrc and cache, and a temp HOME: the real ones are never read.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:https';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import getPort from 'get-port';
import { fixture } from './hub.js';

export interface NpmHttpsRegistry {
  readonly url: string;
  readonly caFile: string;
  /** Env for hub (and so for the npm it runs): nothing else points at the registry or the CA. */
  readonly env: Record<string, string | undefined>;
  /** The global npmrc file (NPM_CONFIG_PREFIX/etc/npmrc). */
  readonly globalNpmrc: string;
  /** Every request path, in arrival order. */
  readonly requests: string[];
  /** With { proxy: true }: each CONNECT target the proxy tunnelled (npm's and hub's requests alike). */
  readonly connects: string[];
  close(): Promise<void>;
}

function makeCerts(dir: string): { ca: string; key: string; cert: string } {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  run('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=hub test CA');
  run('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n');
  run(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'san.ext',
  );
  return {
    ca: join(dir, 'ca.pem'),
    key: readFileSync(join(dir, 'server.key'), 'utf8'),
    cert: readFileSync(join(dir, 'server.pem'), 'utf8'),
  };
}

interface Packed {
  readonly manifest: Record<string, unknown> & { name: string; version: string; description?: string };
  readonly tarball: Buffer;
}

function pack(dir: string, name: string): Packed {
  const stage = join(dir, 'stage', name);
  mkdirSync(stage, { recursive: true });
  cpSync(fixture(`npm-packages/${name}`), join(stage, 'package'), { recursive: true });
  const file = join(dir, `${name}.tgz`);
  execFileSync('tar', ['-czf', file, '-C', stage, 'package']);
  const manifest = JSON.parse(readFileSync(join(stage, 'package', 'package.json'), 'utf8')) as Packed['manifest'];
  return { manifest, tarball: readFileSync(file) };
}

// A real HTTP proxy on 127.0.0.1 that only tunnels (CONNECT), as a company proxy does for HTTPS.
async function startProxy(connects: string[]): Promise<{ url: string; close(): void }> {
  const proxy = createHttpServer((_request, response) => response.writeHead(405).end());
  proxy.on('connect', (request, client, head) => {
    connects.push(request.url ?? '');
    const [host = '', port = '443'] = (request.url ?? '').split(':');
    // The registry listens on 127.0.0.1 only (localhost may resolve to ::1 first).
    const upstream = netConnect(Number(port), host === 'localhost' ? '127.0.0.1' : host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  const port = await getPort({ host: '127.0.0.1' });
  await new Promise<void>(resolve => proxy.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      proxy.closeAllConnections();
      proxy.close();
    },
  };
}

export async function startNpmHttpsRegistry(options: { proxy?: boolean } = {}): Promise<NpmHttpsRegistry> {
  const dir = mkdtempSync(join(tmpdir(), 'hub-npm-registry-'));
  const certs = makeCerts(dir);
  const packages = new Map(readdirSync(fixture('npm-packages')).map(name => [name, pack(dir, name)]));
  const requests: string[] = [];
  const port = await getPort({ host: '127.0.0.1' });
  // npm's proxy agent sends SNI "localhost" for an IP host, so through a proxy the registry is named.
  const url = `https://${options.proxy ? 'localhost' : '127.0.0.1'}:${port}/`;
  const versionOf = (packed: Packed) => ({
    ...packed.manifest,
    _id: `${packed.manifest.name}@${packed.manifest.version}`,
    dist: {
      tarball: `${url}${packed.manifest.name}/-/${packed.manifest.name}-${packed.manifest.version}.tgz`,
      shasum: createHash('sha1').update(packed.tarball).digest('hex'),
      integrity: `sha512-${createHash('sha512').update(packed.tarball).digest('base64')}`,
    },
  });
  const server: Server = createServer({ key: certs.key, cert: certs.cert }, (request, response) => {
    const path = new URL(request.url ?? '/', url);
    requests.push(path.pathname + path.search);
    const json = (body: unknown, status = 200) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (path.pathname === '/-/v1/search') {
      const text = (path.searchParams.get('text') ?? '').toLowerCase();
      const objects = [...packages.values()]
        .filter(packed =>
          `${packed.manifest.name} ${packed.manifest.description ?? ''}`
            .toLowerCase()
            .includes(text.split(' ')[0] ?? ''),
        )
        .map(packed => ({
          package: {
            name: packed.manifest.name,
            version: packed.manifest.version,
            description: packed.manifest.description,
          },
          score: { final: 1 },
        }));
      return json({ objects, total: objects.length, time: new Date(0).toUTCString() });
    }
    const [, name = '', rest = ''] = /^\/([^/]+)(?:\/(.*))?$/.exec(decodeURIComponent(path.pathname)) ?? [];
    const packed = packages.get(name);
    if (!packed) return json({ error: 'Not found' }, 404);
    if (rest === '') {
      return json({
        name,
        'dist-tags': { latest: packed.manifest.version },
        versions: { [packed.manifest.version]: versionOf(packed) },
      });
    }
    if (rest === 'latest') return json(versionOf(packed));
    if (rest.startsWith('-/') && rest.endsWith('.tgz'))
      return response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(packed.tarball);
    return json({ error: 'Not found' }, 404);
  });
  await new Promise<void>(resolve => server.listen(port, '127.0.0.1', resolve));

  const prefix = join(dir, 'npm-global');
  mkdirSync(join(prefix, 'etc'), { recursive: true });
  const globalNpmrc = join(prefix, 'etc', 'npmrc');
  const connects: string[] = [];
  const proxy = options.proxy ? await startProxy(connects) : undefined;
  writeFileSync(
    globalNpmrc,
    `registry=${url}\ncafile=${certs.ca}\n${proxy ? `https-proxy=${proxy.url}\nnoproxy=\n` : ''}`,
  );
  const home = join(dir, 'home');
  mkdirSync(home);
  // npm exports some settings to the processes it runs (npx vitest): they would outrank the npmrc files.
  const exported = Object.fromEntries(
    Object.keys(process.env)
      .filter(key => /^npm_config_/i.test(key))
      .map(key => [key, undefined]),
  );
  const env = {
    ...exported,
    NODE_EXTRA_CA_CERTS: undefined,
    // Proxy settings come from the npmrc only.
    HTTPS_PROXY: undefined,
    https_proxy: undefined,
    HTTP_PROXY: undefined,
    http_proxy: undefined,
    NO_PROXY: undefined,
    no_proxy: undefined,
    NPM_CONFIG_PREFIX: prefix,
    NPM_CONFIG_USERCONFIG: join(dir, 'user-npmrc'),
    NPM_CONFIG_CACHE: join(dir, 'npm-cache'),
    NPM_CONFIG_UPDATE_NOTIFIER: 'false',
    HOME: home,
  };
  return {
    url,
    caFile: certs.ca,
    env,
    globalNpmrc,
    requests,
    connects,
    close: () =>
      new Promise<void>(resolve => {
        proxy?.close();
        server.closeAllConnections();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}
