// Server instructions: kept in the record when a child first starts, shown by registry.list
// { server }, and summarised (bounded) in hub's own instructions by both the full hub and the
// cold-start lane, without starting any server.
import { mkdtemp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { askHub } from '../../../src/cold-start/ask-hub.js';
import { SECTION_BUDGET_CHARS, instructionsSection } from '../../../src/proxy/listing/instructions-section.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { fixture, startHubInProcess, textOf } from '../../helpers/hub.js';
import { initialize, initialized, spawnRawHub } from '../../helpers/raw-rpc.js';
import { commandRecord, putRecords, spawnCount, startHarness } from '../harness.js';

const ASKER = fixture('child-asker.mjs');
const GUIDE = 'Use search before fetch. Results are paged: pass the cursor back to get the next page.';
const tools = [{ name: 'ask', inputSchema: { type: 'object' as const } }];

describe('server instructions', () => {
  test('a child’s instructions are kept in its record when it starts and shown by registry.list { server }', async () => {
    const home = await makeHubHome();
    const hub = await startHarness(home);
    await putRecords(hub.store, commandRecord('guide', [ASKER], { env: { CHILD_INSTRUCTIONS: GUIDE } }));
    await hub.manager.start('guide');
    expect((await hub.store.read()).servers.guide?.instructions).toBe(GUIDE);
    expect((await hub.manager.status('guide'))[0]?.instructions).toBe(GUIDE);
    await hub.close();

    const full = await startHubInProcess(home, { env: { HUB_TOOL_NAMES: 'dotted' } });
    try {
      const listed = await full.call('registry.list', { server: 'guide' });
      expect(textOf(listed)).toContain(GUIDE);
      expect(listed.structuredContent).toMatchObject({ servers: [{ name: 'guide', instructions: GUIDE }] });
    } finally {
      await full.close();
    }
  });

  test('hub’s instructions name installed servers with the start of theirs, the same in both lanes, with no server started', async () => {
    const home = await makeHubHome();
    const spawns = join(await mkdtemp(join(home, 'scratch-')), 'spawns');
    const store = openStore(loadConfig({ HUB_HOME: home }).paths);
    const env = { ECHO_SPAWN_LOG: spawns };
    await putRecords(
      store,
      commandRecord('guide', [ASKER], { env, tools, instructions: GUIDE }),
      commandRecord('plain', [ASKER], { env, tools }),
      commandRecord('wordy', [ASKER], { env, tools, instructions: `Wordy start. ${'blah '.repeat(2000)}` }),
    );

    // In-process: the log line below is the in-process hub's (an entry whose client has left
    // with everything answered never attaches to a shared hub at all).
    const raw = spawnRawHub(home, { HUB_TOOL_NAMES: 'dotted', HUB_SHARED: 'off' });
    raw.write(initialize(1), initialized);
    const lane = (await raw.response(1)).result as { instructions?: string };
    expect(await raw.end()).toBe(0);
    // The cold-start lane, not the full hub, answered that initialize.
    expect(await readFile(join(home, 'logs', 'hub.log'), 'utf8')).toMatch(/"coldStartAnswered":1\b/);
    const reference = await askHub({ HUB_HOME: home, HUB_TOOL_NAMES: 'dotted' }, initialize(1));
    expect(lane.instructions).toBe((reference.init.result as { instructions?: string }).instructions);

    const text = lane.instructions ?? '';
    expect(text).toContain(`- guide: ${GUIDE}`);
    expect(text).toContain('- plain\n');
    expect(text).toContain('- wordy: Wordy start. blah');
    const section = text.slice(text.indexOf('\n\nInstalled MCP servers'));
    expect(section.length).toBeLessThanOrEqual(SECTION_BUDGET_CHARS);
    expect(spawnCount(spawns)).toBe(0);
  });

  test('the section stays within its budget however many servers are installed', () => {
    const servers = Array.from({ length: 60 }, (_, i) => ({
      name: `server-${i}`,
      order: i,
      instructions: `Server ${i} instructions. ${'x'.repeat(1000)}`,
    }));
    const section = instructionsSection(servers);
    expect(section.length).toBeLessThanOrEqual(SECTION_BUDGET_CHARS);
    expect(section).toContain('- server-0: Server 0 instructions.');
    expect(section).toMatch(/…and \d+ more: registry\.list names them all\./);
    expect(instructionsSection([])).toBe('');
  });
});
