// New tools must reach the agent's next turn: after registry.install sends list_changed, the
// client's re-list is answered before the install result, so an agent that starts its next
// model request on the result already has the new tools.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { expect, test } from 'vitest';
import { loadConfig } from '../../src/core/config/config.js';
import { createHub } from '../../src/hub.js';
import { silentLogger } from '../../src/core/logger.js';
import { openStore } from '../../src/store/store.js';
import { makeHubHome } from '../helpers/home.js';
import { textOf } from '../helpers/hub.js';

const EVERYTHING = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);

/** A hub and a real Client that re-lists on list_changed after `relistAfterMs`, recording what reaches it, in order. */
async function connect(home: string, options: { relistWaitMs?: number; relistAfterMs?: number }) {
  const config = loadConfig({ HUB_HOME: home });
  const hub = createHub({
    config,
    log: silentLogger,
    store: openStore(config.paths),
    relistWaitMs: options.relistWaitMs,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await hub.server.connect(serverSide);
  const client = new Client({ name: 'relist-test', version: '1.0.0' });
  const relists: Promise<string[]>[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    if (options.relistAfterMs === undefined) return;
    // A client whose event loop is busy for a moment, as an agent streaming output is.
    relists.push(
      new Promise(resolve => setTimeout(resolve, options.relistAfterMs)).then(async () =>
        (await client.listTools()).tools.map(tool => tool.name),
      ),
    );
  });
  await client.connect(clientSide);
  const arrived: string[] = [];
  const deliver = clientSide.onmessage!;
  clientSide.onmessage = (message: JSONRPCMessage, extra) => {
    if ('method' in message) arrived.push(message.method);
    else if ('result' in message)
      arrived.push('tools' in message.result ? 'tools/list result' : `result ${String(message.id)}`);
    deliver(message, extra);
  };
  return {
    client,
    arrived,
    relists,
    close: async () => {
      await client.close();
      await hub.close();
    },
  };
}

test('the re-list after list_changed is answered before the install result', async () => {
  const home = await makeHubHome();
  // A generous bound: here the order must not depend on how busy the machine is.
  const session = await connect(home, { relistWaitMs: 60_000, relistAfterMs: 300 });
  try {
    const installed = await session.client.callTool({
      name: 'registry_install',
      arguments: { command: process.execPath, args: [EVERYTHING], name: 'everything' },
    });
    expect(installed.isError, textOf(installed as never)).toBeFalsy();
    // The server's prompts and resources are announced on their own, whenever they are read.
    const order = session.arrived.filter(
      entry => entry !== 'notifications/progress' && !/^notifications\/(prompts|resources)\//.test(entry),
    );
    const listChanged = order.indexOf('notifications/tools/list_changed');
    const relisted = order.indexOf('tools/list result');
    const result = order.findIndex(entry => entry.startsWith('result '));
    expect(listChanged).toBeGreaterThanOrEqual(0);
    expect(order.slice(listChanged, result + 1)).toEqual([
      'notifications/tools/list_changed',
      'tools/list result',
      order[result],
    ]);
    expect(relisted).toBeLessThan(result);
    // ...and that listing already holds the new tools.
    expect(await session.relists[0]).toContain('everything_echo');
  } finally {
    await session.close();
  }
});

test('a client that never re-lists still gets the install result', async () => {
  const home = await makeHubHome();
  const session = await connect(home, { relistWaitMs: 50 });
  try {
    const installed = await session.client.callTool({
      name: 'registry_install',
      arguments: { command: process.execPath, args: [EVERYTHING], name: 'everything' },
    });
    expect(installed.isError, textOf(installed as never)).toBeFalsy();
    expect(session.arrived).toContain('notifications/tools/list_changed');
    expect(session.arrived).not.toContain('tools/list result');
  } finally {
    await session.close();
  }
});
