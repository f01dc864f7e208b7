#!/usr/bin/env node
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { STORE_VERSION } from '../store/schema.js';
import type { NameMode } from '../core/naming.js';
import { HUB_VERSION } from '../core/version.js';
import { askHub } from './ask-hub.js';
import { LISTING_FILE, type FastStartListing } from './listing.js';

// Build step: asks a real hub (empty HUB_HOME, so only its own tools) what it answers, over raw
// JSON-RPC, and writes that beside listing.js for the cold-start lane.
// test/e2e/cold-start.test.ts checks both lanes give the same answers.

type Json = Record<string, unknown>;

async function ask(mode: NameMode): Promise<{ init: Json; tools: Json[] }> {
  const home = mkdtempSync(join(tmpdir(), 'hub-listing-'));
  try {
    const clientInfo = { name: 'hub-build', version: HUB_VERSION };
    const params = { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo };
    const { init, list } = await askHub(
      { HUB_HOME: home, HUB_TOOL_NAMES: mode, HUB_LOG_LEVEL: 'silent' },
      { id: 1, method: 'initialize', params },
    );
    const tools = (list.result as Json | undefined)?.tools;
    if (!init.result || !Array.isArray(tools)) throw new Error('hub did not answer initialize and tools/list');
    return { init: init.result as Json, tools: tools as Json[] };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const dotted = await ask('dotted');
const underscore = await ask('underscore');
const withoutVersion = ({ protocolVersion: _negotiated, ...rest }: Json) =>
  rest as unknown as FastStartListing['initialize'][NameMode];
const listing: FastStartListing = {
  hubVersion: HUB_VERSION,
  storeVersion: STORE_VERSION,
  protocol: { latest: LATEST_PROTOCOL_VERSION, supported: SUPPORTED_PROTOCOL_VERSIONS },
  initialize: { dotted: withoutVersion(dotted.init), underscore: withoutVersion(underscore.init) },
  tools: { dotted: dotted.tools, underscore: underscore.tools },
};
writeFileSync(LISTING_FILE, `${JSON.stringify(listing)}\n`);
