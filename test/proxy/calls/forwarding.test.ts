// Proxied calls through a real ServerManager to a real child: results as they are, progress,
// cancellation, timeouts, registry.call, list_changed from the child, safe environment.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readToolCache } from '../../../src/store/tool-cache.js';
import { silentLogger } from '../../../src/core/logger.js';
import { configureServer } from '../../../src/registry/installed/settings.js';
import { makeHubHome, makeScratchDir } from '../../helpers/home.js';
import { textOf } from '../../helpers/hub.js';
import { ECHO, commandRecord, putRecords, startHarness, until } from '../harness.js';

describe('forwarding', () => {
  test('lists the cached tools namespaced and returns child results as they are', async () => {
    const home = await makeHubHome();
    const hub = await startHarness(home);
    await putRecords(hub.store, commandRecord('echo', [ECHO]));
    await hub.manager.reload();
    const tools = await hub.manager.start('echo');
    expect(tools.map(tool => tool.name)).toContain('echo');
    await until(() => expect(hub.listChanged()).toBeGreaterThan(0));

    const listed = (await hub.client.listTools()).tools;
    const echo = listed.find(tool => tool.name === 'echo.echo');
    expect(echo?.title).toBeUndefined();
    expect(echo?.description).toBe('[echo] Echoes text.');
    expect(listed.map(tool => tool.name).slice(0, 3)).toEqual(['echo.echo', 'echo.pid', 'echo.env']);

    expect(textOf(await hub.call('echo.echo', { text: 'hi' }))).toBe('hi');
    const structured = await hub.call('echo.structured');
    expect(structured.structuredContent).toEqual({ answer: 42 });
    const failed = await hub.call('echo.fail');
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toBe('it failed on purpose');

    // tools/echo.json holds the tool cache for the next hub; db.json only when it was written.
    const record = (await hub.store.read()).servers.echo;
    expect(readToolCache(hub.config.paths, 'echo')?.map(tool => tool.name)).toContain('structured');
    expect(record?.tools).toBeUndefined();
    expect(record?.toolsUpdatedAt).toBeDefined();

    const [status] = await hub.manager.status('echo');
    expect(status).toMatchObject({ name: 'echo', state: 'ready', calls: 3, errors: 1, restarts: 0 });
    expect(status?.tools).toContain('echo.echo');
    expect(status?.meanMs).toBeGreaterThan(0);
    expect(status?.p95Ms).toBeGreaterThan(0);
    expect(status?.logFile).toBe(hub.config.paths.serverLog('echo'));
    expect(await readFile(status?.logFile ?? '', 'utf8')).toContain('echo-server');
  });

  test('forwards progress under the caller token, and cancellation reaches the child', async () => {
    const home = await makeHubHome();
    const events = join(await makeScratchDir(), 'events');
    const hub = await startHarness(home);
    await putRecords(hub.store, commandRecord('echo', [ECHO], { env: { ECHO_EVENTS: events } }));
    await hub.manager.reload();
    await hub.manager.start('echo');

    const progress: { progress: number; total?: number | undefined; message?: string | undefined }[] = [];
    const result = await hub.client.callTool({ name: 'echo.slow', arguments: { steps: 3, ms: 10 } }, undefined, {
      onprogress: p => progress.push(p),
    });
    expect(textOf(result as never)).toBe('done 3');
    expect(progress.map(p => p.progress)).toEqual([1, 2, 3]);
    expect(progress[0]).toMatchObject({ total: 3, message: 'step 1' });

    const abort = new AbortController();
    const hanging = hub.client.callTool({ name: 'echo.hang', arguments: {} }, undefined, { signal: abort.signal });
    // Cancelled once the child has the call, not after a fixed delay that a busy machine outruns.
    await until(async () => expect(await readFile(events, 'utf8').catch(() => '')).toContain('started hang'));
    abort.abort('test cancels');
    await expect(hanging).rejects.toThrow();
    await until(async () => expect(await readFile(events, 'utf8').catch(() => '')).toContain('cancelled hang'));
    expect(textOf(await hub.call('echo.echo', { text: 'still fine' }))).toBe('still fine');
  });

  test('a call that hangs past the timeout is a CHILD_TIMEOUT tool error and hub stays fine', async () => {
    const home = await makeHubHome();
    const hub = await startHarness(home, { manager: { callTimeoutMs: 1000, startTimeoutMs: 20_000 } });
    await putRecords(hub.store, commandRecord('echo', [ECHO]));
    await hub.manager.reload();
    await hub.manager.start('echo');
    const result = await hub.call('echo.hang');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^CHILD_TIMEOUT: echo\.hang did not answer within 1000 ms/);
    expect(result.structuredContent).toBeUndefined();
    // Progress resets the timer (even when the caller asked for none): 12 steps of 150 ms outlast it.
    expect(textOf(await hub.call('echo.slow', { steps: 12, ms: 150 }))).toBe('done 12');
    expect(textOf(await hub.call('echo.echo', { text: 'ok' }))).toBe('ok');
    const [status] = await hub.manager.status('echo');
    expect(status?.lastError).toMatch(/no answer within 1000 ms/);
  });

  test('registry.call path: by server and original tool name, with clear errors', async () => {
    const home = await makeHubHome();
    const hub = await startHarness(home);
    await putRecords(hub.store, commandRecord('echo', [ECHO]));
    await hub.manager.reload();
    const extra = { signal: new AbortController().signal, sendNotification: async () => undefined, _meta: {} } as never;
    // Never started and nothing cached: the call starts it to learn its tools.
    expect(textOf(await hub.manager.call('echo', 'echo', { text: 'direct' }, extra))).toBe('direct');
    await expect(hub.manager.call('echo', 'nope', {}, extra)).rejects.toThrow(/has no tool named "nope"/);
    await expect(hub.manager.call('ghost', 'echo', {}, extra)).rejects.toThrow(/No installed server is named "ghost"/);
  });

  test("the child's own list_changed refreshes the cache and reaches the client", async () => {
    const home = await makeHubHome();
    const hub = await startHarness(home);
    await putRecords(hub.store, commandRecord('echo', [ECHO]));
    await hub.manager.reload();
    await hub.manager.start('echo');
    await until(() => expect(hub.listChanged()).toBe(1));
    await hub.call('echo.add_tool', { name: 'brand_new' });
    await until(() => expect(readToolCache(hub.config.paths, 'echo')?.map(tool => tool.name)).toContain('brand_new'));
    // A tool added after the server's tools were approved waits for a person (docs/security.md "Tool integrity").
    expect(textOf(await hub.call('echo.brand_new'))).toMatch(/^TOOL_REFUSED: .*is new since/);
    const { config, store, manager } = hub;
    await configureServer({ server: 'echo', approve: ['brand_new'] }, { config, log: silentLogger, store, manager });
    await until(() => expect(hub.listChanged()).toBe(2));
    expect((await hub.client.listTools()).tools.map(tool => tool.name)).toContain('echo.brand_new');
    expect(textOf(await hub.call('echo.brand_new'))).toBe('brand_new');
  });

  test("a child gets the safe environment plus its own env, never hub's secrets", async () => {
    const home = await makeHubHome();
    process.env.HUB_PROXY_TEST_SECRET = 'do-not-leak';
    process.env.LC_PROXY_TEST = 'kept';
    try {
      const hub = await startHarness(home);
      await putRecords(hub.store, commandRecord('echo', [ECHO], { env: { DECLARED: 'yes' } }));
      await hub.manager.reload();
      await hub.manager.start('echo');
      expect(textOf(await hub.call('echo.env', { key: 'HUB_PROXY_TEST_SECRET' }))).toBe('<unset>');
      expect(textOf(await hub.call('echo.env', { key: 'DECLARED' }))).toBe('yes');
      expect(textOf(await hub.call('echo.env', { key: 'LC_PROXY_TEST' }))).toBe('kept');
      expect(textOf(await hub.call('echo.env', { key: 'PATH' }))).toBe(process.env.PATH);
    } finally {
      delete process.env.HUB_PROXY_TEST_SECRET;
      delete process.env.LC_PROXY_TEST;
    }
  });
});
