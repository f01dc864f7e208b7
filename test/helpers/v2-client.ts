import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { onTestFinished } from 'vitest';
import { SERVER_JS } from './hub.js';
import { noteHubHome } from './shared-hub.js';

/** How a v2 client picks its era: probe with server/discover ('auto'), or the 2026-07-28 revision only. */
export type Negotiation = 'auto' | 'pinned';

/** The SDK's v2 client (`@modelcontextprotocol/client`) connected to the built hub over stdio. */
export async function v2Client(
  home: string,
  negotiation: Negotiation,
  options: { capabilities?: Record<string, unknown>; env?: Record<string, string> } = {},
): Promise<Client> {
  noteHubHome(home);
  const client = new Client(
    { name: 'v2-test', version: '2.4.0' },
    {
      capabilities: options.capabilities ?? {},
      versionNegotiation: { mode: negotiation === 'auto' ? 'auto' : { pin: '2026-07-28' } },
    },
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER_JS],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      HUB_HOME: home,
      HUB_LOG_LEVEL: 'info',
      ...options.env,
    },
    stderr: 'pipe',
  });
  await client.connect(transport);
  onTestFinished(() => client.close());
  return client;
}
