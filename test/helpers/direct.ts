// A direct connection to a server hub installed: the SDK client spawning `node <bin>` from
// HUB_HOME/servers/<name>, as npx would run the same package, with no hub in between.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { z } from 'zod';

// tools/list read loosely: the SDK's own schema rejects a whole list for one odd tool
// (server-gitlab's schemas without "type"), and the comparison needs what the server sent.
const LooseToolList = z.looseObject({ tools: z.array(z.looseObject({ name: z.string() })) });
export type LooseTool = z.infer<typeof LooseToolList>['tools'][number];

export interface Direct {
  readonly client: Client;
  listTools(): Promise<LooseTool[]>;
  close(): Promise<void>;
}

/** The bin npx would run for an installed package (the only one, else the one named after the package). */
export function installedBin(home: string, server: string, pkg: string): string {
  const folder = join(home, 'servers', server, 'node_modules', pkg);
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
    name: string;
    bin?: string | Record<string, string>;
  };
  if (typeof manifest.bin === 'string') return join(folder, manifest.bin);
  const bins = Object.entries(manifest.bin ?? {});
  const unscoped = manifest.name.replace(/^@[^/]+\//, '');
  const chosen = bins.length === 1 ? bins[0] : bins.find(([name]) => name === unscoped);
  if (!chosen) throw new Error(`${pkg} has no bin npx would choose`);
  return join(folder, chosen[1]);
}

export async function connectDirect(
  bin: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<Direct> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, ...args],
    cwd: dirname(bin),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env },
    stderr: 'ignore',
  });
  // The capabilities hub declares to every child (so its tool list does not depend on the client):
  // a direct client declaring the same sees the same tools (server-everything adds some for them).
  const client = new Client(
    { name: 'direct-test', version: '1.0.0' },
    { capabilities: { sampling: {}, elicitation: { form: {}, url: {} }, roots: { listChanged: true } } },
  );
  await client.connect(transport);
  return {
    client,
    listTools: async () => (await client.request({ method: 'tools/list', params: {} }, LooseToolList)).tools,
    close: () => client.close(),
  };
}
