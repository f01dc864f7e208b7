// GET over HTTP(S) with the CA, proxy and strict-ssl settings of the user's npm configuration,
// so hub's own registry and search requests work behind the same corporate proxy/CA as npm.
import { readFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as tlsConnect, rootCertificates } from 'node:tls';
import type { Duplex } from 'node:stream';
import type { NpmSettings } from './config.js';

export interface HttpSettings {
  /** Trusted CAs: Node's own plus npm's cafile and ca (added, so public hosts keep working). */
  readonly ca: readonly string[] | undefined;
  readonly rejectUnauthorized: boolean;
  readonly httpsProxy: string | undefined;
  readonly httpProxy: string | undefined;
  readonly noproxy: readonly string[];
}

export interface HttpAnswer {
  readonly status: number;
  readonly body: string;
}

/** Turns npm's settings into request options; an unreadable cafile is reported through warn. */
export async function httpSettingsFrom(npm: NpmSettings, warn?: (message: string) => void): Promise<HttpSettings> {
  const extra = [...npm.ca];
  if (npm.cafile) {
    try {
      extra.push(await readFile(npm.cafile, 'utf8'));
    } catch (error) {
      warn?.(`npm's cafile ${npm.cafile} could not be read (${(error as Error).message}); using Node's CAs.`);
    }
  }
  return {
    ca: extra.length > 0 ? [...rootCertificates, ...extra] : undefined,
    rejectUnauthorized: npm.strictSsl,
    httpsProxy: npm.httpsProxy ?? npm.proxy,
    httpProxy: npm.proxy,
    noproxy: (npm.noproxy ?? '')
      .split(',')
      .map(host => host.trim().toLowerCase())
      .filter(Boolean),
  };
}

function bypasses(host: string, noproxy: readonly string[]): boolean {
  const name = host.toLowerCase();
  return noproxy.some(
    entry =>
      entry === '*' || name === entry.replace(/^\./, '') || name.endsWith(entry.startsWith('.') ? entry : `.${entry}`),
  );
}

// An HTTPS request through an HTTP proxy is a CONNECT tunnel, then TLS to the real host inside it.
function tunnel(proxy: URL, target: URL, settings: HttpSettings, signal: AbortSignal): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    const port = target.port || '443';
    const auth = proxy.username
      ? {
          'proxy-authorization': `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`,
        }
      : {};
    const send = proxy.protocol === 'https:' ? httpsRequest : httpRequest;
    const connect = send({
      host: proxy.hostname,
      port: proxy.port || (proxy.protocol === 'https:' ? 443 : 80),
      method: 'CONNECT',
      path: `${target.hostname}:${port}`,
      headers: { host: `${target.hostname}:${port}`, ...auth },
      signal,
      ...(settings.ca && { ca: [...settings.ca] }),
    });
    connect.once('connect', (response: IncomingMessage, socket: Duplex) => {
      if (response.statusCode !== 200) {
        socket.destroy();
        reject(
          Object.assign(new Error(`the proxy ${proxy.host} answered ${response.statusCode ?? '?'} to CONNECT`), {
            code: 'EPROXY',
          }),
        );
        return;
      }
      resolve(socket);
    });
    connect.once('error', reject);
    connect.end();
  });
}

/** GET url; resolves with the status and body text, rejects with Node's network/TLS error (its code kept). */
export async function httpGet(
  url: URL,
  settings: HttpSettings,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<HttpAnswer> {
  const secure = url.protocol === 'https:';
  const proxyUrl = bypasses(url.hostname, settings.noproxy)
    ? undefined
    : secure
      ? settings.httpsProxy
      : settings.httpProxy;
  const proxy = proxyUrl ? new URL(proxyUrl) : undefined;
  const tls = { ...(settings.ca && { ca: [...settings.ca] }), rejectUnauthorized: settings.rejectUnauthorized };
  let options: RequestOptions = { method: 'GET', headers, signal, ...tls };
  if (proxy && secure) {
    const socket = await tunnel(proxy, url, settings, signal);
    // No agent: Node then uses createConnection (agent: false would make a fresh agent that ignores it).
    options = { ...options, createConnection: () => tlsConnect({ socket, servername: url.hostname, ...tls }) };
  } else if (proxy) {
    // Plain HTTP through a proxy: the absolute URL goes to the proxy.
    options = { ...options, host: proxy.hostname, port: proxy.port || 80, path: url.href };
  }
  return new Promise((resolve, reject) => {
    const send = secure ? httpsRequest : httpRequest;
    const request = proxy && !secure ? send(options) : send(url, options);
    request.once('error', reject);
    request.once('response', response => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('error', reject);
      response.once('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    request.end();
  });
}
