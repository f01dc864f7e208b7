// Two hubs on one HUB_HOME (two client windows): a server installed through one appears in the
// other, which tells its client with tools/list_changed and can call the new tools.
import { fileURLToPath } from 'node:url';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect, test, vi } from 'vitest';
import { makeHubHome } from '../helpers/home.js';
import { startHubInProcess, textOf } from '../helpers/hub.js';

const EVERYTHING = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);

test('a server installed by one hub is listed and callable in another hub on the same home', async () => {
  const home = await makeHubHome();
  const first = await startHubInProcess(home);
  const second = await startHubInProcess(home);
  try {
    let changes = 0;
    second.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes += 1;
    });
    expect((await second.client.listTools()).tools.map(tool => tool.name)).not.toContain('everything_echo');

    const installed = await first.call('registry.install', {
      command: process.execPath,
      args: [EVERYTHING],
      name: 'everything',
    });
    expect(installed.isError, textOf(installed)).toBeFalsy();

    // The second hub notices db.json changing and tells its client, unasked.
    await vi.waitFor(() => expect(changes).toBeGreaterThan(0), { timeout: 10_000 });
    expect((await second.client.listTools()).tools.map(tool => tool.name)).toContain('everything_echo');
    expect(textOf(await second.call('everything.echo', { message: 'from the other window' }))).toBe(
      'Echo: from the other window',
    );

    const removed = await first.call('registry.uninstall', { name: 'everything' });
    expect(removed.isError, textOf(removed)).toBeFalsy();
    await vi.waitFor(
      async () =>
        expect((await second.client.listTools()).tools.map(tool => tool.name)).not.toContain('everything_echo'),
      { timeout: 10_000, interval: 50 },
    );
  } finally {
    await first.close();
    await second.close();
  }
});
