#!/usr/bin/env node
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { loadConfig } from '../config.js';
import { createHub } from '../hub.js';
import { silentLogger } from '../logger.js';
import { STORE_VERSION } from '../store/schema.js';
import { openStore } from '../store/store.js';
import type { NameMode } from '../tools/naming.js';
import { HUB_VERSION } from '../version.js';
import { LISTING_FILE, type FastStartListing } from './listing.js';

// Build step: asks a real hub (empty HUB_HOME, so only its own tools) what it answers, over raw
// JSON-RPC, and writes that beside listing.js. The cold-start lane replays these bytes' meaning
// exactly; test/e2e/fast-start.test.ts checks both lanes give the same answers.

type Json = Record<string, unknown>;

async function ask(mode: NameMode): Promise<{ init: Json; tools: Json[] }> {
  const home = mkdtempSync(join(tmpdir(), 'hub-listing-'));
  try {
    const config = loadConfig({ HUB_HOME: home, HUB_TOOL_NAMES: mode, HUB_LOG_LEVEL: 'silent' });
    const hub = createHub({ config, log: silentLogger, store: openStore(config.paths, silentLogger) });
    const [client, server] = InMemoryTransport.createLinkedPair();
    const replies = new Map<unknown, Json>();
    client.onmessage = (message: JSONRPCMessage) => {
      if ('id' in message && 'result' in message) replies.set(message.id, message.result as Json);
    };
    await hub.server.connect(server);
    await client.start();
    const clientInfo = { name: 'hub-build', version: HUB_VERSION };
    await client.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo } });
    await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await client.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    for (let i = 0; i < 200 && replies.size < 2; i++) await new Promise(resolve => setTimeout(resolve, 5));
    await hub.close();
    const init = replies.get(1);
    const list = replies.get(2);
    if (!init || !Array.isArray(list?.tools)) throw new Error('hub did not answer initialize and tools/list');
    return { init, tools: list.tools as Json[] };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const dotted = await ask('dotted');
const underscore = await ask('underscore');
const { protocolVersion: _negotiated, ...initialize } = dotted.init;
const listing: FastStartListing = {
  hubVersion: HUB_VERSION,
  storeVersion: STORE_VERSION,
  protocol: { latest: LATEST_PROTOCOL_VERSION, supported: SUPPORTED_PROTOCOL_VERSIONS },
  initialize: initialize as unknown as FastStartListing['initialize'],
  tools: { dotted: dotted.tools, underscore: underscore.tools },
};
writeFileSync(LISTING_FILE, `${JSON.stringify(listing)}\n`);
