// A hub built in this process asked what it answers to initialize and the lists, as raw JSON-RPC.
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createHub } from '../hub.js';
import { openContext } from '../store/open-context.js';

type Json = Record<string, unknown>;

/**
 * What a hub built in this process (never the cold-start lane) answers to `initialize` (the given
 * request), then `tools/list`, then any `more` requests, as the raw JSON-RPC response messages.
 * The build step captures the lane's listing with it, and tests compare the lane against it.
 */
export async function askHub(
  env: NodeJS.ProcessEnv,
  initialize: Json & { id: string | number },
  listId: string | number = 'list',
  more: readonly (Json & { id: string | number; method: string })[] = [],
): Promise<{ init: Json; list: Json; more: Json[] }> {
  const hub = createHub(openContext({ env, log: 'silent' }));
  const [client, server] = InMemoryTransport.createLinkedPair();
  const replies = new Map<unknown, Json>();
  let answered!: () => void;
  const both = new Promise<void>(resolve => (answered = resolve));
  client.onmessage = (message: JSONRPCMessage) => {
    if ('id' in message && !('method' in message)) replies.set(message.id, message as unknown as Json);
    if (replies.size === 2 + more.length) answered();
  };
  try {
    await hub.server.connect(server);
    await client.start();
    await client.send({ jsonrpc: '2.0', ...initialize } as JSONRPCMessage);
    await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await client.send({ jsonrpc: '2.0', id: listId, method: 'tools/list' });
    for (const request of more) await client.send({ jsonrpc: '2.0', ...request } as JSONRPCMessage);
    await both;
  } finally {
    await hub.close();
  }
  return {
    init: replies.get(initialize.id)!,
    list: replies.get(listId)!,
    more: more.map(request => replies.get(request.id)!),
  };
}
