// Issue 28 item 5: the race behind the retried "shared hub SIGKILLed mid-call" test. An entry
// that re-attaches can reach a hub that accepts its connection and closes it before any welcome:
// a SIGKILLed hub whose listening socket outlives its sessions' sockets by a moment (the entry
// connects into the backlog of a dying process), or a hub closing idle. Such a hub read nothing
// of this entry, so the calls sent to it go to the next hub; they were failed "hub restarted".
// The ordering is driven by events here: a stand-in for that hub closes the connection the
// moment the client's call reaches it.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect, onTestFinished, test, vi } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { bootId, readProcessIdentity } from '../../../src/core/process-identity.js';
import { HUB_VERSION } from '../../../src/core/version.js';
import { sharedHubPaths } from '../../../src/hub-link/paths.js';
import { writeHubRecord } from '../../../src/hub-link/record.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, textOf } from '../../helpers/hub.js';
import { sharedHubPid } from '../../helpers/shared-hub.js';
import { commandRecord, ECHO, putRecords, UNSANDBOXED } from '../../proxy/harness.js';

const ECHO_TOOLS = [{ name: 'pid', inputSchema: { type: 'object' as const, properties: {} } }];

test('a hub that closes the connection before its welcome read nothing: the call sent to it is answered by the next hub', async () => {
  const home = await makeHubHome();
  await putRecords(
    openStore(loadConfig({ HUB_HOME: home }).paths),
    // UNSANDBOXED: the child's own pid tells the two runs apart (a sandbox renumbers it).
    commandRecord('echo', [ECHO], { tools: ECHO_TOOLS, ...UNSANDBOXED }),
  );
  const hub = await spawnHub(home);
  onTestFinished(() => hub.close());
  const tool = (await hub.client.listTools()).tools.find(entry => /^echo[._]pid$/.test(entry.name))!.name;
  const firstChild = Number(textOf(await hub.call(tool)));
  const first = sharedHubPid(home)!;

  // The stand-in: recorded in hub.json as a live hub (a process of ours, so the entry's checks
  // pass), listening on a private socket; it takes the hello and closes at the first call.
  const holder = spawn('sleep', ['600'], { stdio: 'ignore' });
  onTestFinished(() => void holder.kill('SIGKILL'));
  await vi.waitFor(() => expect(readProcessIdentity(holder.pid!)).toBeDefined(), { timeout: 5_000 });
  const folder = join(home, 'stand-in');
  mkdirSync(folder, { mode: 0o700 });
  const socketPath = join(folder, 'hub.sock');
  const paths = sharedHubPaths(home);
  let reached = 0;
  const open = new Set<Socket>();
  const server = createServer(socket => {
    open.add(socket);
    socket.on('error', () => undefined);
    let seen = '';
    socket.on('data', chunk => {
      seen += chunk.toString();
      if (!seen.includes('"method":"tools/call"')) return;
      reached += 1;
      rmSync(paths.record, { force: true }); // so the entry starts a real hub next
      socket.destroy(); // no welcome: as a dying hub's backlog connection is reset
    });
  });
  onTestFinished(() => {
    for (const socket of open) socket.destroy();
    server.close();
  });
  await new Promise<void>(resolve => server.listen(socketPath, resolve));
  writeHubRecord(paths.record, {
    pid: holder.pid!,
    startTicks: readProcessIdentity(holder.pid!)!.startTicks,
    bootId: bootId(),
    version: HUB_VERSION,
    socket: socketPath,
    startedAt: new Date().toISOString(),
  });

  // The entry says tools may have changed once it has re-attached: to the stand-in here.
  const reattached = new Promise<void>(resolve =>
    hub.client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
  );
  process.kill(first, 'SIGKILL');
  await reattached;
  const answer = await hub.call(tool);
  expect(reached).toBe(1);
  const nextChild = Number(textOf(answer));
  expect(nextChild).toBeGreaterThan(0);
  expect(nextChild).not.toBe(firstChild);
  const next = sharedHubPid(home);
  expect(next).toBeDefined();
  expect([first, holder.pid]).not.toContain(next);
  expect(hub.stderr?.()).toMatch(new RegExp(`shared hub \\(pid ${holder.pid}\\) closed the connection`));
});
