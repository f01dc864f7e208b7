// A sandbox limited to named hosts: loopback only, hub's proxy bound in, a relay in front of it.
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startHostProxy } from './host-proxy.js';

// A server whose network is a list of named hosts: its own network namespace with only a
// loopback, hub's proxy (host-proxy.ts) bound in on a unix socket, and net-relay.ts in front of
// the server giving that proxy a TCP address for HTTP_PROXY. Only programs that use HTTP_PROXY /
// HTTPS_PROXY get out (curl, Python, Go, Node's fetch from Node 24 with NODE_USE_ENV_PROXY);
// everything else reaches nothing, which is the rule held, not broken.

/** Where the proxy's socket is inside the sandbox, and the relay's port there. */
const INSIDE_SOCKET = '/tmp/.hub-network.sock';
const RELAY_PORT = 3128;
const RELAY_JS = fileURLToPath(new URL('./net-relay.js', import.meta.url));

export interface NamedHostsLaunch {
  /** bwrap arguments after the mounts (the socket into the private /tmp, hub's node). */
  readonly mountArgs: string[];
  /** What runs in front of the server inside the sandbox. */
  readonly wrap: string[];
  readonly env: Record<string, string>;
  readonly onSpawn: (child: ChildProcess, log: (line: string) => void) => void;
  readonly note: string;
}

export async function namedHostsLaunch(allow: readonly string[]): Promise<NamedHostsLaunch> {
  // Refusals go to the server's log, known once it is spawned (nothing connects before).
  let write: (line: string) => void = () => undefined;
  const proxy = await startHostProxy(allow, line => write(line));
  const address = `http://127.0.0.1:${RELAY_PORT}`;
  const env: Record<string, string> = { NODE_USE_ENV_PROXY: '1', NO_PROXY: '', no_proxy: '' };
  for (const key of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'all_proxy'])
    env[key] = address;
  return {
    mountArgs: [
      '--bind',
      proxy.socket,
      INSIDE_SOCKET,
      '--ro-bind',
      process.execPath,
      process.execPath,
      '--ro-bind',
      RELAY_JS,
      RELAY_JS,
    ],
    wrap: [process.execPath, RELAY_JS, INSIDE_SOCKET, String(RELAY_PORT), '--'],
    env,
    onSpawn: (child, log) => {
      write = log;
      child.once('exit', () => proxy.close());
      child.once('error', () => proxy.close());
    },
    note: `network only ${allow.join(', ')} (through hub's proxy: HTTP_PROXY programs only)`,
  };
}
