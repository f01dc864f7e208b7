// Issue 15: one shared hub per HUB_HOME behind thin stdio entries (docs/shared-hub.md).
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test, vi } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { SERVER_JS, spawnHub, textOf, type HubSession } from '../../helpers/hub.js';
import { canMount, mountSmallFs } from '../../helpers/limited-fs.js';
import { isAlive } from '../../helpers/processes.js';
import { sharedHubPid, stopSharedHubIn } from '../../helpers/shared-hub.js';
import { connectHttp, startServe } from '../../helpers/serve.js';
import { commandRecord, ECHO, putRecords, UNSANDBOXED } from '../../proxy/harness.js';

const run = promisify(execFile);
const ECHO_TOOLS = ['pid', 'hang'].map(name => ({ name, inputSchema: { type: 'object' as const, properties: {} } }));

async function homeWithEcho(config?: Record<string, unknown>, env?: Record<string, string>): Promise<string> {
  const home = await makeHubHome();
  await putRecords(
    openStore(loadConfig({ HUB_HOME: home }).paths),
    commandRecord('echo', [ECHO], { tools: ECHO_TOOLS, ...(env && { env }), ...UNSANDBOXED }),
  );
  if (config) await writeFile(join(home, 'config.json'), JSON.stringify(config));
  return home;
}

/** The live `dist/server.js daemon` processes serving home (read from /proc). */
function daemonsOf(home: string): number[] {
  return readdirSync('/proc')
    .filter(entry => /^\d+$/.test(entry))
    .map(Number)
    .filter(pid => {
      try {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        if (cmd[1] !== SERVER_JS || cmd[2] !== 'daemon' || !isAlive(pid)) return false;
        return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`HUB_HOME=${home}`);
      } catch {
        return false;
      }
    });
}

const status = async (home: string) =>
  JSON.parse(
    (await run(process.execPath, [SERVER_JS, 'status', '--json'], { env: { ...process.env, HUB_HOME: home } })).stdout,
  ) as { running: boolean; pid?: number; sessions?: { entryPid: number; client?: string }[]; children?: unknown[] };

const echoName = async (hub: HubSession, tool: string) =>
  (await hub.client.listTools()).tools.find(entry => entry.name === `echo.${tool}` || entry.name === `echo_${tool}`)!
    .name;
const childPid = async (hub: HubSession) => Number(textOf(await hub.call(await echoName(hub, 'pid'))));

test('two stdio entries attach to one shared hub; hub-mcp status lists both sessions; hub-mcp stop ends it', async () => {
  const home = await homeWithEcho();
  const [a, b] = [await spawnHub(home, { clientName: 'client-a' }), await spawnHub(home, { clientName: 'client-b' })];
  try {
    expect(await childPid(a)).toBeGreaterThan(0);
    expect(await childPid(b)).toBeGreaterThan(0);
    expect(daemonsOf(home)).toEqual([sharedHubPid(home)]);
    const report = await status(home);
    expect(report).toMatchObject({ running: true, pid: sharedHubPid(home) });
    expect(report.sessions?.map(s => s.entryPid).sort()).toEqual([a.pid, b.pid].sort());
    expect(report.sessions?.map(s => s.client).sort()).toEqual(['client-a', 'client-b']);
    const mode = (await import('node:fs')).statSync(join(home, 'hub.sock')).mode & 0o777;
    expect(mode).toBe(0o600);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
  const pid = sharedHubPid(home)!;
  const stopped = await run(process.execPath, [SERVER_JS, 'stop'], { env: { ...process.env, HUB_HOME: home } });
  expect(stopped.stdout).toContain(`pid ${pid}`);
  expect(isAlive(pid)).toBe(false);
  expect(existsSync(join(home, 'hub.json'))).toBe(false);
  expect(existsSync(join(home, 'hub.sock'))).toBe(false);
});

// Needs helper S (createSession sharing the core's children): with the shim each session starts
// its own child. The lead switches this to `test` when S lands.
test('two sessions on the shared hub use one child process', async () => {
  const home = await homeWithEcho();
  const [a, b] = [await spawnHub(home), await spawnHub(home)];
  try {
    expect(await childPid(a)).toBe(await childPid(b));
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

// Once retried (2 of 5 fresh-clone CI runs: a call after the re-attach also got "hub restarted"):
// the entry had re-attached to a hub that closed before its welcome and failed what it sent
// there. shared-hub-reattach.test.ts drives that ordering; the hubs' log is printed on a failure.
test('the shared hub SIGKILLed mid-call: the call fails retryably at once, the next works on a new hub, no child is left', async () => {
  const events = join(await makeHubHome(), 'events');
  const home = await homeWithEcho(undefined, { ECHO_EVENTS: events });
  const hub = await spawnHub(home);
  // Read while home still exists: onTestFailed runs after makeHubHome's cleanup removed it.
  const diagnose = (error: unknown) => {
    const log = join(home, 'logs', 'hub.log');
    const hubs = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-60).join('\n') : '(none)';
    const report = `${(error as Error).message}\nentry stderr:\n${hub.stderr?.()}\nhub.log of the failed run:\n${hubs}`;
    console.error(report);
    if (process.env.HUB_TEST_DIAG) writeFileSync(join(process.env.HUB_TEST_DIAG, `sigkill-${Date.now()}.txt`), report);
  };
  try {
    const oldChild = await childPid(hub);
    const oldHub = sharedHubPid(home)!;
    const hanging = hub.call(await echoName(hub, 'hang')).then(
      () => 'answered',
      (error: Error) => error.message,
    );
    // Killed once the child has the call (mid-call, not before the call left the entry).
    await vi.waitFor(() => expect(readFileSync(events, 'utf8')).toContain('started hang'), {
      timeout: 10_000,
      interval: 20,
    });
    process.kill(oldHub, 'SIGKILL');
    expect(await hanging).toMatch(/-32603.*hub restarted; call again/);
    // At once: on the connection's close, not after the heartbeat's silence window (no clock
    // here). The entry says so on stderr right after the error line on stdout.
    const closed = new RegExp(`shared hub \\(pid ${oldHub}\\) closed the connection`);
    await vi.waitFor(() => expect(hub.stderr?.()).toMatch(closed), { timeout: 5_000, interval: 20 });
    expect(hub.stderr?.()).not.toMatch(/did not answer/);
    const newChild = await childPid(hub);
    expect(newChild).not.toBe(oldChild);
    expect(sharedHubPid(home)).not.toBe(oldHub);
    // The dead hub's child was reaped by the new hub (hub.children.json).
    await vi.waitFor(() => expect(isAlive(oldChild)).toBe(false), { timeout: 5_000, interval: 50 });
    expect(daemonsOf(home)).toEqual([sharedHubPid(home)]);
  } catch (error) {
    diagnose(error);
    throw error;
  } finally {
    await hub.close();
  }
});

test('two entries starting at the same moment end with exactly one shared hub', async () => {
  const home = await homeWithEcho();
  const hubs = await Promise.all([spawnHub(home), spawnHub(home), spawnHub(home)]);
  try {
    // tools/list is the cold-start lane's: each entry attaches right after it.
    await Promise.all(hubs.map(hub => hub.client.listTools()));
    await vi.waitFor(async () => expect((await status(home)).sessions).toHaveLength(3), { timeout: 10_000 });
    expect(daemonsOf(home)).toHaveLength(1);
  } finally {
    await Promise.all(hubs.map(hub => hub.close()));
  }
});

test('idle exit: with no session for sharedHub.idleMs the shared hub closes its children and removes hub.json', async () => {
  const home = await homeWithEcho({ sharedHub: { idleMs: 300 } });
  const hub = await spawnHub(home);
  const child = await childPid(hub);
  const pid = sharedHubPid(home)!;
  await hub.close();
  await vi.waitFor(() => expect(isAlive(pid)).toBe(false), { timeout: 10_000, interval: 50 });
  expect(isAlive(child)).toBe(false);
  expect(existsSync(join(home, 'hub.json'))).toBe(false);
  expect(existsSync(join(home, 'hub.sock'))).toBe(false);
});

test('an entry SIGKILLed: the shared hub closes its session', async () => {
  const home = await homeWithEcho();
  const kept = await spawnHub(home);
  const killed = await spawnHub(home);
  try {
    await vi.waitFor(async () => expect((await status(home)).sessions).toHaveLength(2), { timeout: 10_000 });
    process.kill(killed.pid!, 'SIGKILL');
    await vi.waitFor(async () => expect((await status(home)).sessions?.map(s => s.entryPid)).toEqual([kept.pid]), {
      timeout: 5_000,
      interval: 100,
    });
  } finally {
    await killed.close().catch(() => undefined);
    await kept.close();
  }
});

test('HUB_SHARED=off runs the hub in-process, and says so once in its log', async () => {
  const home = await homeWithEcho();
  const hub = await spawnHub(home, { env: { HUB_SHARED: 'off' } });
  try {
    expect(await childPid(hub)).toBeGreaterThan(0);
    expect(existsSync(join(home, 'hub.json'))).toBe(false);
    expect(daemonsOf(home)).toEqual([]);
  } finally {
    await hub.close();
  }
  const log = await readFile(join(home, 'logs', 'hub.log'), 'utf8');
  expect(log.match(/running in-process: HUB_SHARED=off/g)).toHaveLength(1);
});

test.skipIf(!canMount)('a read-only HUB_HOME falls back to the in-process hub', async () => {
  const fs = mountSmallFs(256);
  await putRecords(
    openStore(loadConfig({ HUB_HOME: fs.dir }).paths),
    commandRecord('echo', [ECHO], { tools: ECHO_TOOLS, ...UNSANDBOXED }),
  );
  fs.readOnly();
  const hub = await spawnHub(fs.dir);
  try {
    // Child servers cannot start on a read-only HUB_HOME (no log folder), as before: hub's own tools work.
    expect((await hub.call('list_processes')).isError).toBeFalsy();
    expect((await hub.client.listTools()).tools.length).toBeGreaterThan(5);
    expect(daemonsOf(fs.dir)).toEqual([]);
  } finally {
    await hub.close();
  }
});

test('an older shared hub hands over to a newer entry; its own sessions carry on with the new one', async () => {
  const home = await homeWithEcho();
  const first = await spawnHub(home);
  try {
    await childPid(first);
    const old = sharedHubPid(home)!;
    // Pretend the running hub is an older version.
    const record = JSON.parse(await readFile(join(home, 'hub.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(join(home, 'hub.json'), JSON.stringify({ ...record, version: '0.0.1' }));
    const second = await spawnHub(home);
    try {
      expect(await childPid(second)).toBeGreaterThan(0);
      expect(isAlive(old)).toBe(false);
      const now = sharedHubPid(home)!;
      expect(now).not.toBe(old);
      // The first entry reattached to the new hub.
      await vi.waitFor(async () => expect(await childPid(first)).toBeGreaterThan(0), { timeout: 5_000 });
      expect(daemonsOf(home)).toEqual([now]);
    } finally {
      await second.close();
    }
  } finally {
    await first.close();
  }
});

test('hub-mcp stop with no shared hub says so; the test cleanup leaves no shared hub behind', async () => {
  const home = await makeHubHome();
  const { stdout } = await run(process.execPath, [SERVER_JS, 'stop'], { env: { ...process.env, HUB_HOME: home } });
  expect(stdout).toContain('No shared hub was running');
  const hub = await spawnHub(home);
  await hub.client.listTools();
  const pid = sharedHubPid(home)!;
  await hub.close();
  await stopSharedHubIn(home);
  expect(isAlive(pid)).toBe(false);
});

// Issue 15 items 4 and 7: `hub serve` is the same shared hub (a background one hands over, its
// entry re-attaches), so two stdio entries and one Streamable HTTP session share one child.
test('hub-mcp serve takes over the shared hub: two stdio sessions and one HTTP session use one child process', async () => {
  const home = await homeWithEcho();
  const a = await spawnHub(home);
  try {
    const before = await childPid(a);
    const background = sharedHubPid(home)!;
    const served = await startServe(home);
    // The background hub handed over: its entry re-attached to hub serve (a retryable error at most once).
    await vi.waitFor(() => expect(sharedHubPid(home)).toBe(served.child.pid), { timeout: 10_000, interval: 50 });
    expect(isAlive(background)).toBe(false);
    await vi.waitFor(() => expect(isAlive(before)).toBe(false), { timeout: 5_000, interval: 50 });
    const b = await spawnHub(home);
    try {
      const http = await connectHttp(served.url, served.token());
      const pid = await childPid(b);
      expect(await childPid(a).catch(() => childPid(a))).toBe(pid);
      const echo = (await http.client.listTools()).tools.find(tool => /^echo[._]pid$/.test(tool.name))!.name;
      expect(Number(textOf(await http.call(echo)))).toBe(pid);
      expect(daemonsOf(home)).toEqual([]);
    } finally {
      await b.close();
    }
    expect(await served.stop()).toBe(0);
  } finally {
    await a.close();
  }
});
