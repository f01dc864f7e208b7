// Issue 27 item 6: hub asks a roots-capable client for its roots at the start of every session.
// The SDK (1.32.2) never removes its listener from a request's AbortSignal, so the
// AbortSignal.timeout hub handed it fired 5 s later and sent the client a notifications/cancelled
// for a request it had long answered. None must reach the client.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CancelledNotificationSchema,
  ListRootsRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { expect, test, vi } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { SERVER_JS } from '../../helpers/hub.js';
import { noteHubHome } from '../../helpers/shared-hub.js';

// Past hub's 5 s roots timeout, counted by hub itself: its answer to a start_process that waits
// this long is written after that timer would have fired (timers fire in order), so any
// cancellation it caused is already on the wire, ahead of the answer.
const PAST_ROOTS_TIMEOUT_MS = 6_000;

test('a roots-capable client (claude-code) gets no notifications/cancelled after answering roots/list', async () => {
  const home = await makeHubHome();
  noteHubHome(home);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER_JS],
    env: { HUB_HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', () => undefined);
  const client = new Client(
    { name: 'claude-code', version: '2.1.197' },
    { capabilities: { roots: { listChanged: true } } },
  );
  let rootsAsked = 0;
  client.setRequestHandler(ListRootsRequestSchema, () => {
    rootsAsked += 1;
    return { roots: [{ uri: `file://${home}`, name: 'project' }] };
  });
  const cancelled: unknown[] = [];
  client.setNotificationHandler(CancelledNotificationSchema, notification => void cancelled.push(notification.params));
  await client.connect(transport);
  try {
    await vi.waitFor(() => expect(rootsAsked).toBeGreaterThan(0), { timeout: 20_000, interval: 50 });
    const started = (await client.callTool(
      {
        name: 'start_process',
        arguments: {
          command: process.execPath,
          args: ['-e', 'setTimeout(() => undefined, 60_000)'],
          name: 'idle',
          wait_for: { pattern: 'never printed', timeout_ms: PAST_ROOTS_TIMEOUT_MS },
        },
      },
      undefined,
      { timeout: 60_000 },
    )) as CallToolResult;
    expect(started.isError).toBeFalsy();
    expect(started.structuredContent).toMatchObject({ ready: false, reason: 'timeout' });
    expect(cancelled).toEqual([]);
    await client.callTool({ name: 'kill_process', arguments: { id: 'idle' } });
  } finally {
    await client.close();
  }
});
