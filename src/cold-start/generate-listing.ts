#!/usr/bin/env node
// Build step: a real hub's answers captured into the listing the cold-start lane answers from.
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

const SURFACE = [
  ['prompts', 'prompts/list'],
  ['resources', 'resources/list'],
  ['resourceTemplates', 'resources/templates/list'],
] as const;

async function ask(mode: NameMode): Promise<{ init: Json; tools: Json[]; surface: FastStartListing['surface'] }> {
  const home = mkdtempSync(join(tmpdir(), 'hub-listing-'));
  try {
    const clientInfo = { name: 'hub-build', version: HUB_VERSION };
    const params = { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo };
    const { init, list, more } = await askHub(
      { HUB_HOME: home, HUB_TOOL_NAMES: mode, HUB_LOG_LEVEL: 'silent' },
      { id: 1, method: 'initialize', params },
      'list',
      SURFACE.map(([, method]) => ({ id: method, method })),
    );
    const tools = (list.result as Json | undefined)?.tools;
    if (!init.result || !Array.isArray(tools)) throw new Error('hub did not answer initialize and tools/list');
    // hub's own entries, one page each (the lane pages them after the installed servers' ones).
    const surface = Object.fromEntries(
      SURFACE.map(([key, method], index) => {
        const result = more[index]?.result as Json | undefined;
        if (!Array.isArray(result?.[key]) || result.nextCursor !== undefined)
          throw new Error(`hub did not answer ${method} in one page`);
        return [key, result[key]];
      }),
    ) as FastStartListing['surface'];
    return { init: init.result as Json, tools: tools as Json[], surface };
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
  surface: dotted.surface,
};
writeFileSync(LISTING_FILE, `${JSON.stringify(listing)}\n`);
