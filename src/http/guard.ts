// What an HTTP request must show before its body is read: Host, Origin and the bearer token.
import { createHash, timingSafeEqual } from 'node:crypto';
import { networkInterfaces, hostname as machineName } from 'node:os';

// What a request must show before hub reads its body (docs/clients.md "Streamable HTTP", the MCP spec's
// transport security notes): a Host naming this machine (DNS rebinding: a page whose name
// resolves to 127.0.0.1 sends its own name as Host), no Origin but this listener's own, and the
// bearer token. The SDK's hostHeaderValidation checks the Host hostname the same way; hub also
// checks Origin and the token, and sends no CORS headers at all, so a browser page never reads
// an answer.

const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];
const WILDCARD = new Set(['0.0.0.0', '::', '[::]']);

export const isLoopback = (host: string): boolean =>
  ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host) || /^127\.\d+\.\d+\.\d+$/.test(host);

/** The host names (as a URL spells them: IPv6 in brackets) requests may name in Host and Origin. */
export function allowedHostnames(bindHost: string): Set<string> {
  const names = new Set(LOOPBACK);
  if (!WILDCARD.has(bindHost)) {
    names.add(bindHost.includes(':') && !bindHost.startsWith('[') ? `[${bindHost}]` : bindHost.toLowerCase());
    return names;
  }
  // Bound to every interface: any address of this machine, and its name.
  names.add(machineName().toLowerCase());
  for (const list of Object.values(networkInterfaces())) {
    for (const address of list ?? []) names.add(address.family === 'IPv6' ? `[${address.address}]` : address.address);
  }
  return names;
}

export interface Refusal {
  readonly status: number;
  readonly message: string;
  readonly headers?: Record<string, string>;
}

function hostnameOf(value: string, scheme: boolean): string | undefined {
  try {
    const url = new URL(scheme ? value : `http://${value}`);
    return url.hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** Host must name this machine (port-agnostic, as the SDK's check). */
export function checkHost(host: string | undefined, allowed: ReadonlySet<string>): Refusal | undefined {
  if (!host) return { status: 403, message: 'Forbidden: the request has no Host header.' };
  const name = hostnameOf(host, false);
  if (name === undefined || !allowed.has(name)) {
    return {
      status: 403,
      message: `Forbidden: Host "${host.slice(0, 100)}" is not this hub (DNS rebinding protection). Use ${[...allowed].slice(0, 3).join(', ')}.`,
    };
  }
  return undefined;
}

/**
 * Origin, when a browser sends one, must be this listener itself (same host name list, same
 * port): a page elsewhere, even on another localhost port, is refused before the token check.
 */
export function checkOrigin(
  origin: string | undefined,
  allowed: ReadonlySet<string>,
  port: number,
): Refusal | undefined {
  if (origin === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(origin);
  } catch {
    url = undefined;
  }
  const ownPort = url !== undefined && Number(url.port || (url.protocol === 'https:' ? 443 : 80)) === port;
  if (url === undefined || !allowed.has(url.hostname.toLowerCase()) || !ownPort) {
    return {
      status: 403,
      message: `Forbidden: Origin "${origin.slice(0, 100)}" may not use this hub (DNS rebinding protection; hub answers no cross-origin requests).`,
    };
  }
  return undefined;
}

// Hashing both sides first makes the comparison constant-time whatever the lengths.
const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** `Authorization: Bearer <token>`, compared in constant time. */
export function checkBearer(header: string | undefined, token: string): Refusal | undefined {
  const challenge = { 'WWW-Authenticate': 'Bearer realm="hub"' };
  const match = header === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!match) {
    return {
      status: 401,
      message:
        'Unauthorized: send "Authorization: Bearer <token>"; the token is in $HUB_HOME/http-token (hub-mcp config <client> --http writes it for you).',
      headers: challenge,
    };
  }
  if (!timingSafeEqual(digest(match[1]!), digest(token))) {
    return {
      status: 401,
      message:
        'Unauthorized: wrong token (rotated? read $HUB_HOME/http-token again, or re-run hub-mcp config <client> --http).',
      headers: challenge,
    };
  }
  return undefined;
}
