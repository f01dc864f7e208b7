// The hello line an entry opens its shared-hub session with (src/hub-link/entry.ts, hello.ts):
// bounded whatever the client listed, and a hello the hub refuses costs no call.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, textOf, type HubSession } from '../../helpers/hub.js';
import { commandRecord, ECHO, putRecords } from '../../proxy/harness.js';

const hubLog = (home: string): string => {
  const file = join(home, 'logs', 'hub.log');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
};

async function ok(hub: HubSession, tool: string): Promise<void> {
  const result = await hub.call(tool);
  expect(result.isError, textOf(result)).toBeFalsy();
}

// Failed before: the hello carried the whole list the cold-start lane had answered (1.4 MB here),
// the shared hub refused a hello over 1 MB, and the first call after a cold start got "hub
// restarted; call again" while the entry attached again without it. (Under 1 MB plus a chunk it
// depended on where the socket's chunks ended: the 10 MB tools/list test failed now and then.)
test('a client that listed over 1 MB of tools at cold start: its first call runs on the shared hub, no re-attach', async () => {
  const home = await makeHubHome();
  const tools = (server: number) =>
    Array.from({ length: 150 }, (_, i) => ({
      name: `tool_${i}`,
      description: `Tool ${i} of server ${server}. ${'Says what it does at length. '.repeat(100)}`,
      inputSchema: { type: 'object' as const, properties: { text: { type: 'string' } } },
    }));
  await putRecords(
    openStore(loadConfig({ HUB_HOME: home }).paths),
    ...[1, 2, 3].map(server => commandRecord(`big${server}`, [ECHO], { tools: tools(server) })),
  );
  const hub = await spawnHub(home, { env: { HUB_EXPOSURE: 'all' } });
  try {
    const { tools: listed } = await hub.client.listTools();
    expect(Buffer.byteLength(JSON.stringify(listed))).toBeGreaterThan(1.2 * 1024 * 1024);
    await ok(hub, 'list_processes');
    await ok(hub, 'get_free_port');
    // One session, attached once, with what the cold-start lane answered.
    const attached = hubLog(home)
      .split('\n')
      .filter(line => line.includes('"session attached"'));
    expect(attached).toHaveLength(1);
    expect(attached[0]).toMatch(/"coldStartAnswered":\d+/);
    expect(hub.stderr?.()).not.toMatch(/closed the connection|refused/);
  } finally {
    await hub.close();
  }
});

// Failed before: the entry took the refusal for a dead hub, failed the calls in flight with "hub
// restarted" and attached again, to be refused again.
test('a hello the shared hub refuses (an env over 1 MB): the entry runs the hub in-process and no call fails', async () => {
  const home = await makeHubHome();
  // Each variable under Linux's 128 KB per string; together over the hello's 1 MB.
  const big = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`HUB_TEST_BIG_${i}`, 'x'.repeat(110_000)]));
  const hub = await spawnHub(home, { env: big });
  try {
    await ok(hub, 'list_processes');
    await ok(hub, 'get_free_port');
    await ok(hub, 'list_processes');
    expect(hub.stderr?.()).toMatch(
      /running in-process, not on the shared hub: the shared hub refused this entry \(the hello line is over 1048576 bytes\)/,
    );
    expect(hubLog(home)).toContain('a connection to the shared hub was refused');
  } finally {
    await hub.close();
  }
});
