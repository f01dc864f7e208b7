// Issue 31 item 4: a watched process's crash reaches the session that asked, without polling
// (docs/events.md): Claude Code's channel notification where the client takes it, resources/updated
// on its log resource, and otherwise the `events` of the next result of one of hub's own tools.
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect, test, vi } from 'vitest';
import { z } from 'zod';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, textOf } from '../../helpers/hub.js';

const ChannelSchema = z.object({
  method: z.literal('notifications/claude/channel'),
  params: z.object({ content: z.string(), meta: z.record(z.string(), z.string()) }),
});

// Says it is up, then waits for a line on stdin: it crashes only when the test says so.
const GATED_CRASH = 'echo up; read line; echo boom-now; exit 3';

test('a watched crash is pushed to the session that asked: channel, resources/updated, or the next result', async () => {
  const home = await makeHubHome();
  const channelHub = await spawnHub(home, {
    clientName: 'channel-client',
    capabilities: { experimental: { 'claude/channel': {} } },
  });
  const plainHub = await spawnHub(home, { clientName: 'plain-client' });
  const pushed: z.infer<typeof ChannelSchema>['params'][] = [];
  const updated: string[] = [];
  channelHub.client.setNotificationHandler(ChannelSchema, notification => void pushed.push(notification.params));
  channelHub.client.setNotificationHandler(ResourceUpdatedNotificationSchema, notification => {
    updated.push(notification.params.uri);
  });
  let plainPushed = 0;
  plainHub.client.setNotificationHandler(ChannelSchema, () => void (plainPushed += 1));
  try {
    expect(channelHub.client.getServerCapabilities()?.experimental).toEqual({ 'claude/channel': {} });
    const start = async (hub: typeof channelHub, name: string) => {
      const result = await hub.call('start_process', {
        command: GATED_CRASH,
        name,
        watch: ['crash', 'boom-\\w+'],
        wait_for: { pattern: '^up$' },
      });
      expect(result.isError, textOf(result)).toBeFalsy();
      return (result.structuredContent as { process: { id: string } }).process.id;
    };
    const a = await start(channelHub, 'crash-a');
    const b = await start(plainHub, 'crash-b');
    // A watch that is not a keyword is a log pattern, checked before anything starts.
    const bad = await plainHub.call('start_process', { command: 'true', watch: ['(unclosed'] });
    expect(textOf(bad)).toMatch(/^INVALID_INPUT: watch "\(unclosed"/);

    for (const [hub, id] of [
      [channelHub, a],
      [plainHub, b],
    ] as const)
      expect((await hub.call('send_input', { id, text: 'go\n', idle_ms: 0 })).isError).toBeFalsy();

    await vi.waitFor(
      () => {
        expect(pushed.map(event => event.meta.event).sort()).toEqual(['crash', 'match']);
        expect(updated).toContain(`hub://processes/${a}/log`);
      },
      { timeout: 20_000, interval: 100 },
    );
    const crash = pushed.find(event => event.meta.event === 'crash')!;
    expect(crash.meta).toMatchObject({ source: 'hub', process: a, name: 'crash-a', exit_code: '3' });
    expect(crash.content).toBe('Process crash-a crash (exit code 3).');
    expect(pushed.find(event => event.meta.event === 'match')!.meta).toMatchObject({ line: 'boom-now' });

    // The plain client gets no push it cannot show; its next hub result carries the events.
    let events: { event: string; process: string; exit_code?: number }[] = [];
    await vi.waitFor(
      async () => {
        const listed = await plainHub.call('list_processes');
        events.push(...((listed.structuredContent as { events?: typeof events }).events ?? []));
        expect(events.map(event => event.event).sort()).toEqual(['crash', 'match']);
      },
      { timeout: 20_000, interval: 200 },
    );
    expect(events.find(event => event.event === 'crash')).toMatchObject({ process: b, exit_code: 3 });
    expect(plainPushed).toBe(0);
    // Given once: the next result has none.
    events = [];
    expect((await plainHub.call('list_processes')).structuredContent).not.toHaveProperty('events');
    // The channel session's events are not repeated in its results.
    expect((await channelHub.call('list_processes')).structuredContent).not.toHaveProperty('events');
  } finally {
    await Promise.all([channelHub.close(), plainHub.close()]);
  }
}, 120_000);
