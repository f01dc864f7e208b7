// The SDK lane's caller (forward.ts sdkCaller) carries what the fast path's does: the caller's
// request id, so a child's request during the call goes out related to it (relatedRequestId).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect, onTestFinished, test } from 'vitest';
import { sdkCaller } from '../../../src/proxy/calls/forward.js';

test("sdkCaller passes the caller's request id on", async () => {
  const server = new Server({ name: 'caller-test', version: '1.0.0' }, { capabilities: { tools: {} } });
  const seen: unknown[] = [];
  server.setRequestHandler(CallToolRequestSchema, (_request, extra) => {
    seen.push([extra.requestId, sdkCaller(extra).requestId]);
    return { content: [] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'caller-test-client', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  onTestFinished(() => client.close());
  await client.callTool({ name: 'any', arguments: {} });
  const [[given, passed]] = seen as [[unknown, unknown]];
  expect(given).toBeDefined();
  expect(passed).toBe(given);
});
