// The transport-level fast path over real stdio: a client → hub-like process → echo child.
// Same behaviour as the SDK path: results as they are, progress under the caller's token,
// cancellation reaching the child, timeouts as tool errors, unknown names left to the SDK.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, onTestFinished, test } from 'vitest';
import { loadConfig } from '../../src/core/config/config.js';
import { openStore } from '../../src/store/store.js';
import { makeHubHome, makeScratchDir } from '../helpers/home.js';
import { fixture, textOf } from '../helpers/hub.js';
import { isAlive } from '../helpers/processes.js';
import { ECHO, UNSANDBOXED, commandRecord, putRecords, until } from '../proxy/harness.js';

const cached = (...names: string[]) => names.map(name => ({ name, inputSchema: { type: 'object' as const } }));

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

describe('fast path', () => {
  test('calls, progress, isError, structured results and unknown names', async () => {
    const home = await makeHubHome();
    const store = openStore(loadConfig({ HUB_HOME: home }).paths);
    // Tools cached as registry.install leaves them: listed and called with no start beforehand.
    await putRecords(store, commandRecord('echo', [ECHO], { tools: cached('echo', 'slow', 'structured', 'fail') }));
    const { client: hub } = await fastHubOn(home);
    expect(textOf(await call(hub, 'echo.echo', { text: 'fast' }))).toBe('fast');
    expect(textOf(await call(hub, 'echo_echo', { text: 'under' }))).toBe('under');
    expect((await call(hub, 'echo.structured')).structuredContent).toEqual({ answer: 42 });
    const failed = await call(hub, 'echo.fail');
    expect(failed).toMatchObject({ isError: true });
    const progress: number[] = [];
    const slow = await hub.callTool({ name: 'echo.slow', arguments: { steps: 4, ms: 50 } }, undefined, {
      onprogress: p => progress.push(p.progress),
    });
    expect(textOf(slow as CallToolResult)).toBe('done 4');
    // Arrives under the caller's token (the SDK client matches it). The SDK client handles a
    // notification a microtask after a response read in the same chunk, so on a loaded machine
    // the last steps can be dropped by the client itself: only a prefix is certain.
    expect(progress[0]).toBe(1);
    expect([1, 2, 3, 4].slice(0, progress.length)).toEqual(progress);
    const many = await Promise.all(Array.from({ length: 50 }, (_, i) => call(hub, 'echo.echo', { text: `m${i}` })));
    expect(many.map(textOf)).toEqual(Array.from({ length: 50 }, (_, i) => `m${i}`));
    await expect(call(hub, 'nope.nothing')).rejects.toThrow(/Unknown tool: nope.nothing/);
  });

  test('cancellation reaches the child and a timeout is a CHILD_TIMEOUT result', async () => {
    const home = await makeHubHome();
    const events = join(await makeScratchDir(), 'events');
    const store = openStore(loadConfig({ HUB_HOME: home }).paths);
    await putRecords(
      store,
      commandRecord('echo', [ECHO], { env: { ECHO_EVENTS: events }, tools: cached('hang', 'echo') }),
    );
    // The call timeout under test is 1 s; the child's start is not (it is slow on a busy machine).
    const { client: hub } = await fastHubOn(home, { CALL_TIMEOUT_MS: '1000', START_TIMEOUT_MS: '60000' });
    const abort = new AbortController();
    const hanging = hub.callTool({ name: 'echo.hang', arguments: {} }, undefined, { signal: abort.signal });
    // Cancelled once the child has the call (a fixed delay raced the child's start on a loaded machine).
    await until(async () => expect(await readFile(events, 'utf8').catch(() => '')).toContain('started hang'));
    abort.abort('test cancels');
    await expect(hanging).rejects.toThrow();
    await until(async () => expect(await readFile(events, 'utf8').catch(() => '')).toContain('cancelled hang'));
    const timedOut = await call(hub, 'echo.hang');
    expect(textOf(timedOut)).toMatch(/^CHILD_TIMEOUT: echo\.hang did not answer within 1000 ms/);
    expect(textOf(await call(hub, 'echo.echo', { text: 'fine' }))).toBe('fine');
  });

  test('a call cancelled while its child is still starting never reaches the child', async () => {
    const home = await makeHubHome();
    const events = join(await makeScratchDir(), 'events');
    const store = openStore(loadConfig({ HUB_HOME: home }).paths);
    await putRecords(
      store,
      commandRecord('echo', [ECHO], { env: { ECHO_EVENTS: events }, tools: cached('hang', 'echo') }),
    );
    const { client: hub } = await fastHubOn(home, { START_TIMEOUT_MS: '60000' });
    const abort = new AbortController();
    const hanging = hub.callTool({ name: 'echo.hang', arguments: {} }, undefined, { signal: abort.signal });
    // The request and its notifications/cancelled are both written before the child has started.
    abort.abort('test cancels at once');
    await expect(hanging).rejects.toThrow();
    // The child answers in order: had it been sent the hang call, it would have logged it first.
    expect(textOf(await call(hub, 'echo.echo', { text: 'after' }))).toBe('after');
    expect(await readFile(events, 'utf8').catch(() => '')).not.toContain('started hang');
  });

  test('closing stdin ends the hub-like process and its child', async () => {
    const home = await makeHubHome();
    const store = openStore(loadConfig({ HUB_HOME: home }).paths);
    await putRecords(store, commandRecord('echo', [ECHO], { tools: cached('pid'), ...UNSANDBOXED }));
    const { client: hub, pid } = await fastHubOn(home);
    const child = Number(textOf(await call(hub, 'echo.pid')));
    expect(isAlive(child)).toBe(true);
    await hub.close();
    await until(() => expect(isAlive(pid) || isAlive(child)).toBe(false));
  });
});

async function fastHubOn(home: string, env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [fixture('child-fast-hub.mjs')],
    env: { ...process.env, HUB_HOME: home, ...env } as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'fast-test', version: '1.0.0' });
  await client.connect(transport);
  onTestFinished(() => client.close());
  return { client, pid: transport.pid ?? 0 };
}
