import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { loadConfig } from '../../src/core/config/config.js';
import { createHub } from '../../src/hub.js';
import { silentLogger } from '../../src/core/logger.js';
import { openStore } from '../../src/store/store.js';
import { daemonsOf, noteHubHome } from './shared-hub.js';

export const SERVER_JS = fileURLToPath(new URL('../../dist/server.js', import.meta.url));
export const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

export interface HubSession {
  readonly client: Client;
  readonly pid: number | undefined;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
  /** The last 16 KB the hub wrote to stderr (spawnHub only; read so the pipe never fills). */
  stderr?(): string;
}

export interface SessionOptions {
  /** Added to hub's env; undefined removes a variable (e.g. one npm exports to the test run). */
  env?: Record<string, string | undefined>;
  clientName?: string;
  capabilities?: ClientCapabilities;
  /** The entry's working folder (spawnHub only): where a project file is looked up. */
  cwd?: string;
}

function session(client: Client, pid: number | undefined, close: () => Promise<void>): HubSession {
  return {
    client,
    pid,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close,
  };
}

// What a client's environment carries for network access (npm inside hub needs it).
const NETWORK_ENV = Object.fromEntries(
  Object.entries(process.env).filter(
    (entry): entry is [string, string] =>
      entry[1] !== undefined &&
      /^(https?_proxy|no_proxy|node_extra_ca_certs|ssl_cert_file|ssl_cert_dir|npm_config_(registry|cafile|strict_ssl|proxy|https_proxy))$/i.test(
        entry[0],
      ),
  ),
);

const definedOnly = (env: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));

/** The built hub (dist/server.js) over stdio, as a client config would start it. */
export async function spawnHub(home: string, options: SessionOptions = {}): Promise<HubSession> {
  noteHubHome(home);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER_JS],
    ...(options.cwd !== undefined && { cwd: options.cwd }),
    env: definedOnly({
      ...NETWORK_ENV,
      // CI runs the process tests again with HUB_PLATFORM=portable (docs/platforms.md): hub gets it too.
      HUB_PLATFORM: process.env.HUB_PLATFORM,
      HUB_HOME: home,
      HUB_LOG_LEVEL: 'info',
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      ...options.env,
    }),
    stderr: 'pipe',
  });
  const client = new Client(
    { name: options.clientName ?? 'hub-test', version: '1.0.0' },
    { capabilities: options.capabilities ?? {} },
  );
  // Drained as it comes: an unread pipe would block the hub once full.
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-16_384)));
  await client.connect(transport);
  const base = session(client, transport.pid ?? undefined, () => client.close());
  // The entry lost its shared hub: say why (its stderr) and what the hubs logged, while home exists.
  const call: HubSession['call'] = async (name, args) => {
    try {
      return await base.call(name, args);
    } catch (error) {
      if (error instanceof Error && error.message.includes('hub restarted')) {
        // The entry says why on stderr right after the error line on stdout: wait for that line.
        await vi
          .waitFor(() => expect(stderr).toMatch(/hub: warning: .*shared hub/), { timeout: 2_000, interval: 20 })
          .catch(() => undefined);
        const tail = (file: string) =>
          existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-30).join('\n') : '(none)';
        error.message += `\nentry stderr:\n${stderr.slice(-2_000)}\nhub.log:\n${tail(join(home, 'logs', 'hub.log'))}`;
        error.message += `\nshared-hub.stderr:\n${tail(join(home, 'logs', 'shared-hub.stderr'))}`;
        // Killed, or alive with the connection closed? And which hubs serve home now.
        const named = [...stderr.matchAll(/shared hub \(pid (\d+)\)/g)].map(match => Number(match[1]));
        const state = (pid: number) => {
          try {
            const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
            return `state ${stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)}`;
          } catch {
            return 'gone';
          }
        };
        error.message += `\nnamed hubs: ${named.map(pid => `${pid} ${state(pid)}`).join(', ') || 'none'}`;
        error.message += `; daemons of home now: ${daemonsOf(home).join(', ') || 'none'}`;
      }
      throw error;
    }
  };
  return { ...base, call, stderr: () => stderr };
}

/** The hub in this process over a linked in-memory pair: fast, and still a real Client. */
export async function startHubInProcess(home: string, options: SessionOptions = {}): Promise<HubSession> {
  const config = loadConfig(definedOnly({ HUB_HOME: home, ...options.env }));
  const store = openStore(config.paths);
  const hub = createHub({ config, log: silentLogger, store });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await hub.server.connect(serverTransport);
  const client = new Client(
    { name: options.clientName ?? 'hub-test', version: '1.0.0' },
    { capabilities: options.capabilities ?? {} },
  );
  await client.connect(clientTransport);
  return session(client, undefined, async () => {
    await client.close();
    await hub.close();
  });
}

/** The text of a tool result's first content block. */
export const textOf = (result: CallToolResult): string =>
  result.content[0]?.type === 'text' ? result.content[0].text : '';
