// The client's capabilities are known once the client counts as initialized, even when initialize
// and notifications/initialized arrive in one chunk (the cold-start hand-off replays them so).
import { PassThrough } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { expect, test } from 'vitest';
import { sdkClientSide } from '../../../src/proxy/sessions/sdk-client-side.js';
import { HubStdioServerTransport } from '../../../src/wire/stdio-transport.js';

test('whenInitialized sees the capabilities of a client whose initialize and initialized came in one chunk', async () => {
  const server = new Server({ name: 'hub', version: '0' }, { capabilities: {} });
  const client = sdkClientSide(server);
  const seen = new Promise<ClientCapabilities | undefined>(resolve =>
    client.whenInitialized(() => resolve(client.capabilities())),
  );
  const input = new PassThrough();
  const output = new PassThrough();
  output.resume();
  await server.connect(new HubStdioServerTransport(input, output));
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: { roots: { listChanged: true }, elicitation: {} },
      clientInfo: { name: 'one-chunk', version: '1' },
    },
  };
  input.write(
    `${JSON.stringify(initialize)}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`,
  );
  expect(await seen).toMatchObject({ roots: { listChanged: true }, elicitation: {} });
  await server.close();
});
