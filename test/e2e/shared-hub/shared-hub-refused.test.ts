// Issue 26 item 8: a connection the shared hub refuses is closed, whatever its peer does, so it
// holds no memory and does not keep the hub from exiting idle.
import { writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { expect, test, vi } from 'vitest';
import { HELLO_MAX_BYTES } from '../../../src/hub-link/protocol.js';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub } from '../../helpers/hub.js';
import { isAlive } from '../../helpers/processes.js';
import { sharedHubPid } from '../../helpers/shared-hub.js';
import { readHubRecord } from '../../../src/hub-link/record.js';

// Failed before: the hub answered the refusal with end() on a half-open socket and kept the
// connection (and its 1 MB) until the peer ended it; this peer never does, so the hub never
// went idle.
test('a hello over 1 MB: the hub answers the refusal, closes the connection, and still exits idle', async () => {
  const home = await makeHubHome();
  await writeFile(join(home, 'config.json'), JSON.stringify({ sharedHub: { idleMs: 300 } }));
  const hub = await spawnHub(home);
  await hub.call('list_processes'); // attached to the shared hub by now
  const pid = sharedHubPid(home)!;
  const socketPath = readHubRecord(join(home, 'hub.json'))!.socket;

  // A peer that sends a hello line longer than the limit and never ends its side.
  const peer = connect(socketPath);
  peer.on('error', () => undefined);
  let answer = '';
  let closed = false;
  peer.on('data', chunk => (answer += chunk.toString()));
  peer.on('end', () => (closed = true));
  peer.on('close', () => (closed = true));
  await new Promise<void>(resolve => peer.once('connect', resolve));
  peer.write(Buffer.alloc(HELLO_MAX_BYTES + 64 * 1024, 'x'));
  try {
    await vi.waitFor(() => expect(answer).toMatch(/"hub":"error".*over 1048576 bytes/), {
      timeout: 10_000,
      interval: 50,
    });
    await vi.waitFor(() => expect(closed).toBe(true), { timeout: 10_000, interval: 50 });
    // The only session leaves: the hub goes idle with the refused peer still not ended on its side.
    await hub.close();
    await vi.waitFor(() => expect(isAlive(pid)).toBe(false), { timeout: 10_000, interval: 50 });
  } finally {
    peer.destroy();
    await hub.close().catch(() => undefined);
  }
});
