// Children that fail to start, or fail slowly, with real processes: what hub says (the package and
// the log lines that explain it), how soon, and that the crash-loop guard stops a slow failure.
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { explainingLines } from '../../../src/proxy/slots/start-failure.js';
import { makeHubHome, makeScratchDir } from '../../helpers/home.js';
import { fixture, textOf } from '../../helpers/hub.js';
import { commandRecord, putRecords, spawnCount, startHarness, until, type Harness } from '../harness.js';

const FAST_BACKOFF = { baseMs: 20, capMs: 100, stableMs: 60_000 };

const startError = async (hub: Harness, name: string): Promise<Error & { code?: string }> => {
  const error: unknown = await hub.manager.start(name).then(
    () => new Error('it started'),
    (thrown: unknown) => thrown,
  );
  return error as Error & { code?: string };
};

/** The exposed name of a server's tool, whichever naming mode the harness picked. */
async function exposed(hub: Harness, server: string, tool: string): Promise<string> {
  const names = (await hub.client.listTools()).tools.map(entry => entry.name);
  const name = names.find(candidate => candidate === `${server}.${tool}` || candidate === `${server}_${tool}`);
  if (!name) throw new Error(`no ${server} ${tool} in ${names.join(', ')}`);
  return name;
}

describe('start failures', () => {
  test('a native-module failure names the package and quotes the first error line, not only the end of a 46-line stack', async () => {
    const home = await makeHubHome();
    const hub = await startHarness(home, { manager: { backoff: FAST_BACKOFF } });
    await putRecords(
      hub.store,
      commandRecord('sqlite', [fixture('child-native-error.mjs')], {
        package: 'mcp-server-sqlite-npx',
        version: '0.8.0',
      }),
    );
    const error = await startError(hub, 'sqlite');
    expect(error.code).toBe('CHILD_FAILED');
    expect(error.message).toContain('Server "sqlite" (mcp-server-sqlite-npx@0.8.0) could not start');
    expect(error.message).toContain('Error: Could not locate the bindings file. Tried:');
    expect(error.message).toContain('Node.js v20.20.2');
  });

  test('a start timeout names the package, not the Node binary', async () => {
    const home = await makeHubHome();
    const hub = await startHarness(home, { manager: { backoff: FAST_BACKOFF, startTimeoutMs: 1500 } });
    await putRecords(
      hub.store,
      commandRecord('quiet', ['-e', 'setInterval(() => {}, 1000)'], { package: 'quiet-mcp', version: '2.0.0' }),
    );
    const error = await startError(hub, 'quiet');
    expect(error.code).toBe('CHILD_TIMEOUT');
    expect(error.message).toMatch(/^Server "quiet" \(quiet-mcp@2\.0\.0\) did not start .* within 1500 ms/);
    expect(error.message).not.toContain(process.execPath);
  });

  test('initialize and tools/list share one start deadline, so no start stays "starting" past it', async () => {
    const home = await makeHubHome();
    const hub = await startHarness(home, { manager: { backoff: FAST_BACKOFF, startTimeoutMs: 3000 } });
    // Each step (2 s) fits in 3 s; both together do not.
    await putRecords(
      hub.store,
      commandRecord('slow', [fixture('child-slow-start.mjs')], { env: { SLOW_STEP_MS: '2000' } }),
    );
    const error = await startError(hub, 'slow');
    expect(error.code).toBe('CHILD_TIMEOUT');
  });

  test('a child that exits right after the handshake is reported as such, with its error line', async () => {
    const home = await makeHubHome();
    const hub = await startHarness(home, { manager: { backoff: FAST_BACKOFF } });
    await putRecords(hub.store, commandRecord('lister', [fixture('child-list-crash.mjs')]));
    const error = await startError(hub, 'lister');
    expect(error.code).toBe('CHILD_FAILED');
    expect(error.message).toContain('the process exited (code 1) before listing its tools');
    expect(error.message).toContain("TypeError: Cannot read properties of undefined (reading 'map')");
  });

  test('explainingLines keeps the first error line with what continues it, and the last lines', () => {
    const lines = [
      'file.js:126',
      'Error: Could not locate the bindings file. Tried:',
      ' → /a/node_sqlite3.node',
      ...Array.from({ length: 40 }, (_, i) => `    at frame${i} (x.js:${i})`),
      'Node.js v20.20.2',
    ];
    const text = explainingLines(lines);
    expect(text.split('\n')[0]).toBe('Error: Could not locate the bindings file. Tried:');
    expect(text).toContain(' → /a/node_sqlite3.node');
    expect(text).toMatch(/… \(\d+ more lines\)/);
    expect(text.endsWith('Node.js v20.20.2')).toBe(true);
    expect(text.split('\n').length).toBeLessThan(12);
  });
});

describe('things that are not MCP servers', () => {
  test('a CLI that prints its usage and exits fails at once, quoting its stdout and stderr', async () => {
    const home = await makeHubHome();
    const hub = await startHarness(home, { manager: { backoff: FAST_BACKOFF } });
    await putRecords(
      hub.store,
      commandRecord('fancy', [fixture('child-not-mcp.mjs')], { env: { NOT_MCP_MODE: 'exit' } }),
    );
    const error = await startError(hub, 'fancy');
    expect(error.code).toBe('CHILD_FAILED');
    expect(error.message).toContain('exited (code 2) before completing the MCP handshake');
    expect(error.message).toContain('Usage: fancy-cli [options] <file>');
    expect(error.message).toContain('fancy-cli: no input file given');
  });

  test('a program that prints only non-JSON-RPC lines and answers nothing fails within seconds, not at the 60 s start timeout', async () => {
    const home = await makeHubHome();
    // The default start timeout (60 s, longer than this test may run) and the default grace.
    const hub = await startHarness(home, { manager: { backoff: FAST_BACKOFF } });
    await putRecords(
      hub.store,
      commandRecord('repl', [fixture('child-not-mcp.mjs')], { env: { NOT_MCP_MODE: 'hang' } }),
    );
    const error = await startError(hub, 'repl');
    expect(error.code).toBe('CHILD_FAILED');
    expect(error.message).toContain('does not look like an MCP server');
    expect(error.message).toContain('[stdout] Usage: fancy-cli [options] <file>');
  });

  test('a server that prints a banner and a JSON log line before speaking MCP keeps working', async () => {
    const home = await makeHubHome();
    const hub = await startHarness(home);
    await putRecords(hub.store, commandRecord('banner', [fixture('child-banner.mjs')]));
    await hub.manager.start('banner');
    expect(textOf(await hub.call(await exposed(hub, 'banner', 'echo'), { text: 'still here' }))).toBe('still here');
  });
});

describe('slow crash loops', () => {
  // windowMs is what the old guard used: it counted exits inside that window, and server-redis's
  // exits (~30 s runs plus backoff) were too far apart for 5 to fit in 60 s. Here the window is
  // scaled the same way (shorter than the gap between exits); today's guard has none and ignores it.
  // stableMs stays far above a run's length, so a loaded machine cannot make a run look stable.
  const SLOW = { baseMs: 20, capMs: 100, stableMs: 20_000, windowMs: 1000 };

  test('a server that fails soon after each start, its exits farther apart than the old window, ends failed after 5 unstable runs; a hub-mcp restart clears it', async () => {
    const home = await makeHubHome();
    const spawns = join(await makeScratchDir(), 'spawns');
    const hub = await startHarness(home, { manager: { backoff: SLOW } });
    const record = commandRecord('redis', [fixture('child-slow-fail.mjs')], {
      package: '@example/server-redis',
      version: '1.0.0',
      env: { ECHO_SPAWN_LOG: spawns, SLOW_FAIL_MS: '700' },
    });
    await putRecords(hub.store, record);
    // On a loaded machine even the first run may end before its handshake: either way it is unstable.
    await hub.manager.start('redis').catch(() => undefined);
    await until(async () => expect((await hub.manager.status('redis'))[0]?.state).toBe('failed'), 50_000);
    expect(spawnCount(spawns)).toBe(5);

    // registry.list's view and every call say why, with the line of its log that explains it.
    await until(async () => {
      const [status] = await hub.manager.status('redis');
      expect(status?.lastError).toContain(
        'Server "redis" (@example/server-redis@1.0.0) failed: its last 5 runs each ended within 20 s of starting',
      );
      expect(status?.lastError).toContain('Error: connect ECONNREFUSED 127.0.0.1:6379');
    });
    const call = await hub.call(await exposed(hub, 'redis', 'echo'));
    expect(call.isError).toBe(true);
    expect(textOf(call)).toMatch(/^CHILD_FAILED: Server "redis" \(@example\/server-redis@1\.0\.0\) failed/);
    expect(textOf(call)).toContain('Error: connect ECONNREFUSED 127.0.0.1:6379');
    expect(spawnCount(spawns)).toBe(5);

    // A new hub starts from a clean slate: the server is tried again.
    await hub.close();
    const again = await startHarness(home, { manager: { backoff: SLOW } });
    expect((await again.manager.status('redis'))[0]?.state).toBe('stopped');
    await again.manager.start('redis').catch(() => undefined);
    expect(spawnCount(spawns)).toBe(6);
    // Closed here, before the home is removed: its backoff would start the server again meanwhile.
    await again.close();
  }, 90_000);
});
