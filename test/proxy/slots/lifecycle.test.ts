// Child lifecycle with real processes: cache without spawning, lazy and single-flight start,
// idle stop, crash restart, crash loop → failed, stale exits, and process groups on close.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { makeHubHome, makeScratchDir } from '../../helpers/home.js';
import { fixture, textOf } from '../../helpers/hub.js';
import { groupMembers, isAlive } from '../../helpers/processes.js';
import { ECHO, commandRecord, putRecords, spawnCount, startHarness, until, UNSANDBOXED } from '../harness.js';

const FAST_BACKOFF = { baseMs: 20, capMs: 100, stableMs: 60_000 };

// Outside HUB_HOME, which a sandboxed child never reaches.
const scratch = (_home: string): Promise<string> => makeScratchDir();

describe('lifecycle', () => {
  test('after a restart tools are listed from the store cache with no child, then started lazily once for 10 concurrent calls', async () => {
    const home = await makeHubHome();
    const spawns = join(await scratch(home), 'spawns');
    const first = await startHarness(home);
    await putRecords(first.store, commandRecord('echo', [ECHO], { env: { ECHO_SPAWN_LOG: spawns } }));
    await first.manager.reload();
    await first.manager.start('echo');
    const names = (await first.client.listTools()).tools.map(tool => tool.name);
    await first.close();
    expect(spawnCount(spawns)).toBe(1);

    const second = await startHarness(home);
    expect((await second.client.listTools()).tools.map(tool => tool.name)).toEqual(names);
    const [before] = await second.manager.status('echo');
    expect(before).toMatchObject({ state: 'stopped' });
    expect(before?.pid).toBeUndefined();
    expect(spawnCount(spawns)).toBe(1);

    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => second.call('echo.echo', { text: `n${i}` })),
    );
    expect(results.map(textOf)).toEqual(Array.from({ length: 10 }, (_, i) => `n${i}`));
    expect(spawnCount(spawns)).toBe(2);
    const [after] = await second.manager.status('echo');
    expect(after).toMatchObject({ state: 'ready', calls: 10, errors: 0 });
    expect(isAlive(after?.pid ?? 0)).toBe(true);
  });

  test('an idle server stops after idleStopMs and starts again on the next call', async () => {
    const home = await makeHubHome();
    const hub = await startHarness(home, { manager: { idleStopMs: 300 } });
    await putRecords(hub.store, commandRecord('echo', [ECHO], UNSANDBOXED));
    await hub.manager.start('echo');
    const pid = Number(textOf(await hub.call('echo.pid')));
    await until(async () => expect((await hub.manager.status('echo'))[0]?.state).toBe('stopped'));
    await until(() => expect(isAlive(pid)).toBe(false));
    const again = Number(textOf(await hub.call('echo.pid')));
    expect(again).not.toBe(pid);
    expect((await hub.manager.status('echo'))[0]?.restarts).toBe(0);
  });

  test('a crashed server is restarted with backoff and counted', async () => {
    const home = await makeHubHome();
    const hub = await startHarness(home, { manager: { backoff: FAST_BACKOFF } });
    await putRecords(hub.store, commandRecord('echo', [ECHO], UNSANDBOXED));
    await hub.manager.start('echo');
    const pid = Number(textOf(await hub.call('echo.pid')));
    await hub.call('echo.crash');
    await until(async () => {
      const [status] = await hub.manager.status('echo');
      expect(status).toMatchObject({ state: 'ready', restarts: 1 });
      expect(status?.pid).not.toBe(pid);
    });
    expect(Number(textOf(await hub.call('echo.pid')))).not.toBe(pid);
  });

  test('a server that crashes at start ends failed after 5 tries, and calls fail fast with its stderr tail', async () => {
    const home = await makeHubHome();
    const spawns = join(await scratch(home), 'spawns');
    const hub = await startHarness(home, { manager: { backoff: FAST_BACKOFF } });
    const record = commandRecord('crashy', [fixture('child-crash.mjs')], {
      env: { ECHO_SPAWN_LOG: spawns },
      tools: [{ name: 'work', inputSchema: { type: 'object' } }],
    });
    await putRecords(hub.store, record);
    await hub.manager.reload();

    const first = await hub.call('crashy.work');
    expect(first.isError).toBe(true);
    expect(textOf(first)).toMatch(/^CHILD_FAILED: Server "crashy" \(node .*child-crash\.mjs\) could not start/);
    expect(textOf(first)).toContain('fatal: missing API_TOKEN');
    await until(async () => expect((await hub.manager.status('crashy'))[0]?.state).toBe('failed'));
    expect(spawnCount(spawns)).toBe(5);

    await until(async () => {
      const failed = await hub.call('crashy.work');
      expect(textOf(failed)).toMatch(
        /^CHILD_FAILED: Server "crashy" \(node .*child-crash\.mjs\) failed: its last 5 runs each ended within 60 s of starting/,
      );
      expect(textOf(failed)).toContain('fatal: missing API_TOKEN');
    });
    expect(spawnCount(spawns)).toBe(5);
    const [status] = await hub.manager.status('crashy');
    expect(status?.restarts).toBe(4);
    expect(status?.lastError).toMatch(/failed/);

    // Reinstalled (a changed record) clears the failed state: it is tried again.
    await putRecords(hub.store, { ...record, installedAt: new Date(Date.now() + 1000).toISOString() });
    await hub.manager.reload();
    expect((await hub.manager.status('crashy'))[0]?.state).toBe('stopped');
    await hub.call('crashy.work');
    expect(spawnCount(spawns)).toBeGreaterThan(5);
  });

  test('a command that does not exist fails to start with a clear CHILD_FAILED', async () => {
    const home = await makeHubHome();
    const hub = await startHarness(home, { manager: { backoff: FAST_BACKOFF } });
    await putRecords(hub.store, commandRecord('ghost', [], { command: '/nonexistent/mcp-server' }));
    await expect(hub.manager.start('ghost')).rejects.toThrow(
      /Server "ghost" \(mcp-server\) could not start \(spawn \/nonexistent\/mcp-server ENOENT\)/,
    );
    await until(async () => expect((await hub.manager.status('ghost'))[0]?.state).toBe('failed'));
  });

  test('a stale exit from an older generation restarts nothing', async () => {
    const home = await makeHubHome();
    const spawns = join(await scratch(home), 'spawns');
    // No jitter: a restart after a later exit comes after one after an earlier exit.
    const hub = await startHarness(home, { manager: { backoff: { ...FAST_BACKOFF, jitter: 0 } } });
    await putRecords(
      hub.store,
      commandRecord('echo', [ECHO], { env: { ECHO_SPAWN_LOG: spawns } }),
      commandRecord('witness', [ECHO]),
    );
    await hub.manager.reload();
    await hub.manager.start('echo');
    const old = (await hub.manager.status('echo'))[0]?.pid ?? 0;
    // start() again restarts: the old child's exit arrives after the new generation began.
    await hub.manager.start('echo');
    const current = (await hub.manager.status('echo'))[0]?.pid ?? 0;
    expect(current).not.toBe(old);
    await until(() => expect(isAlive(old)).toBe(false));
    // A (wrong) backoff restart of echo would come before the witness's, which crashes later.
    await hub.manager.start('witness');
    await hub.call('witness.crash');
    await until(async () =>
      expect((await hub.manager.status('witness'))[0]).toMatchObject({ state: 'ready', restarts: 1 }),
    );
    const [status] = await hub.manager.status('echo');
    expect(status).toMatchObject({ state: 'ready', restarts: 0, pid: current });
    expect(spawnCount(spawns)).toBe(2);
  });

  test('close() leaves no grandchild: a server that spawned one, and a shell launcher', async () => {
    const home = await makeHubHome();
    const dir = await scratch(home);
    const pidFile = join(dir, 'grandchild.pid');
    const hub = await startHarness(home);
    await putRecords(
      hub.store,
      commandRecord('spawner', [fixture('child-grandchild.mjs')], {
        env: { GRANDCHILD_PID_FILE: pidFile },
        ...UNSANDBOXED,
      }),
      // Like npx: a shell that runs node as its child rather than exec'ing it.
      commandRecord('launched', ['-c', `"${process.execPath}" "${ECHO}"; true`], {
        command: '/bin/sh',
        ...UNSANDBOXED,
      }),
    );
    await hub.manager.reload();
    await hub.manager.start('spawner');
    await hub.manager.start('launched');
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    const spawner = (await hub.manager.status('spawner'))[0]?.pid ?? 0;
    const shell = (await hub.manager.status('launched'))[0]?.pid ?? 0;
    const server = Number(textOf(await hub.call('launched.pid')));
    expect(server).not.toBe(shell);
    expect(isAlive(grandchild)).toBe(true);
    expect(groupMembers(spawner)).toContain(grandchild);
    expect(groupMembers(shell)).toContain(server);

    await hub.close();
    for (const pid of [grandchild, spawner, shell, server]) expect(isAlive(pid)).toBe(false);
    expect(groupMembers(spawner)).toEqual([]);
    expect(groupMembers(shell)).toEqual([]);
  });

  test('an autoStart server starts once the client has initialized, with no call', async () => {
    const home = await makeHubHome();
    const spawns = join(await scratch(home), 'spawns');
    const config = (await startHarness(home)).store;
    await putRecords(config, commandRecord('auto', [ECHO], { autoStart: true, env: { ECHO_SPAWN_LOG: spawns } }));
    const hub = await startHarness(home);
    await until(async () => expect((await hub.manager.status('auto'))[0]?.state).toBe('ready'));
    expect(spawnCount(spawns)).toBe(1);
    expect(hub.manager.list('dotted').map(tool => tool.name)).toContain('auto.echo');
  });

  test('stop() ends the child but keeps the record and the listed tools', async () => {
    const home = await makeHubHome();
    const hub = await startHarness(home);
    await putRecords(hub.store, commandRecord('echo', [ECHO]));
    await hub.manager.reload();
    await hub.manager.start('echo');
    const pid = (await hub.manager.status('echo'))[0]?.pid ?? 0;
    await hub.manager.stop('echo');
    expect(isAlive(pid)).toBe(false);
    expect((await hub.manager.status('echo'))[0]).toMatchObject({ state: 'stopped' });
    expect(hub.manager.list('dotted').map(tool => tool.name)).toContain('echo.echo');
    // Uninstalled: the record is gone, so are its tools (and list_changed is sent).
    const changes = hub.listChanged();
    await hub.store.update(data => {
      delete data.servers.echo;
    });
    await hub.manager.reload();
    expect(hub.manager.list('dotted')).toEqual([]);
    await until(() => expect(hub.listChanged()).toBe(changes + 1));
  });
});
