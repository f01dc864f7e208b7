// Per-session logging level on one shared hub: two clients share one child server; each gets its
// log messages at the level it set, and the child sends as much as the most verbose client wants.
import { readFile } from 'node:fs/promises';
import { LoggingMessageNotificationSchema, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import { expect, test, vi } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome, sharedFile } from '../../helpers/home.js';
import { fixture, spawnHub, type HubSession } from '../../helpers/hub.js';
import { commandRecord, putRecords } from '../../proxy/harness.js';

const levelsSeen = (hub: HubSession): LoggingLevel[] => {
  const seen: LoggingLevel[] = [];
  hub.client.setNotificationHandler(LoggingMessageNotificationSchema, notice => void seen.push(notice.params.level));
  return seen;
};

test('two sessions on one shared child: each gets log messages at its own level', { timeout: 60_000 }, async () => {
  const home = await makeHubHome();
  const events = sharedFile(home, 'events.log');
  await putRecords(
    openStore(loadConfig({ HUB_HOME: home }).paths),
    commandRecord('bulk', [fixture('surface-server.mjs')], { env: { SURFACE_EVENTS: events } }),
  );
  const quiet = await spawnHub(home, { clientName: 'quiet' });
  const chatty = await spawnHub(home, { clientName: 'chatty' });
  try {
    const quietSeen = levelsSeen(quiet);
    const chattySeen = levelsSeen(chatty);
    await quiet.client.setLoggingLevel('error');
    await chatty.client.setLoggingLevel('debug');
    // The child's log tool sends one debug and two error messages, whoever calls it.
    for (const caller of [quiet, chatty]) {
      quietSeen.length = 0;
      chattySeen.length = 0;
      expect((await caller.call('registry.call', { server: 'bulk', tool: 'log' })).isError).toBeFalsy();
      await vi.waitFor(() => expect(chattySeen).toEqual(['debug', 'error', 'error']), { timeout: 10_000 });
      await vi.waitFor(() => expect(quietSeen).toEqual(['error', 'error']), { timeout: 10_000 });
    }
    // One child, told the most verbose level any session asked for.
    expect(
      (await readFile(events, 'utf8'))
        .trim()
        .split('\n')
        .filter(line => line.startsWith('level'))
        .at(-1),
    ).toBe('level debug');
    // The quiet client setting a level again does not quieten the child for the chatty one.
    await quiet.client.setLoggingLevel('critical');
    chattySeen.length = 0;
    quietSeen.length = 0;
    await chatty.call('registry.call', { server: 'bulk', tool: 'log' });
    await vi.waitFor(() => expect(chattySeen).toEqual(['debug', 'error', 'error']), { timeout: 10_000 });
    expect(quietSeen).toEqual([]);
  } finally {
    await Promise.all([quiet.close(), chatty.close()]);
  }
});
