import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test, vi } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { MAX_INPUT_ROUNDS } from '../../../src/proxy/child/input-required.js';
import { PROBE_TIMEOUT_MS } from '../../../src/proxy/child/modern.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { fixture, spawnHub, textOf, type HubSession } from '../../helpers/hub.js';
import { v2Client } from '../../helpers/v2-client.js';
import { commandRecord, putRecords } from '../../proxy/harness.js';

// The child side of both eras: children built with the SDK's v2 server package that speak
// 2026-07-28 only, or both eras, proxied by the built hub to a 2025 client (the 1.x SDK Client)
// and to a 2026-07-28 client (the v2 Client). Their input_required results become elicitation,
// sampling and roots requests to the 2025 client.

const MODERN_CHILD = fixture('modern-child.mjs');

async function homeWith(mode: 'modern' | 'dual', events?: string, delayMs = 0): Promise<string> {
  const home = await makeHubHome();
  const store = openStore(loadConfig({ HUB_HOME: home }).paths);
  await putRecords(
    store,
    commandRecord('kid', [MODERN_CHILD], {
      env: {
        MODERN_CHILD_MODE: mode,
        MODERN_CHILD_DELAY_MS: String(delayMs),
        ...(events !== undefined && { MODERN_CHILD_EVENTS: events }),
      },
      tools: [
        { name: 'echo', inputSchema: { type: 'object' } },
        { name: 'ask', inputSchema: { type: 'object' } },
      ],
    }),
  );
  return home;
}

async function legacyClient(home: string): Promise<HubSession> {
  const session = await spawnHub(home, {
    capabilities: { elicitation: { form: {} }, sampling: {}, roots: { listChanged: true } },
  });
  const { client } = session;
  client.setRequestHandler(ElicitRequestSchema, request => {
    const message = request.params.message;
    if (message.includes('Round')) return { action: 'accept', content: { ok: true } };
    return { action: 'accept', content: { name: message.startsWith('[server kid]') ? 'octocat' : 'unlabelled' } };
  });
  client.setRequestHandler(CreateMessageRequestSchema, () => ({
    model: 'test-model',
    role: 'assistant',
    content: { type: 'text', text: 'hi there' },
  }));
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }));
  return session;
}

const until = <T>(read: () => Promise<T | undefined>, what: string): Promise<T> =>
  vi.waitFor(
    async () => {
      const value = await read();
      if (value === undefined) throw new Error(`timed out waiting for ${what}`);
      return value;
    },
    { timeout: 15_000, interval: 100 },
  );

describe.each(['modern', 'dual'] as const)('a %s v2 child through hub', mode => {
  test('a 2025 client lists and calls its tools, gets its prompt, reads its resource, hears list_changed', async () => {
    const events = join(await makeHubHome(), 'events');
    const home = await homeWith(mode, events);
    // Its child adds a tool while it runs; not withheld for approval here (docs/security.md "Tool integrity").
    await writeFile(join(home, 'config.json'), JSON.stringify({ integrity: 'off' }));
    const session = await legacyClient(home);
    expect(textOf(await session.call('kid_echo', { text: 'hi' }))).toBe('hi');
    // hub spoke 2026-07-28 to it, in both cases: the dual child saw the envelope too.
    expect(await readFile(events, 'utf8')).toBe('echo 2026-07-28\n');

    const { client } = session;
    const tools = await until(async () => {
      const names = (await client.listTools()).tools.map(tool => tool.name);
      return names.includes('kid_sample') ? names : undefined;
    }, 'the tools read from the child');
    expect(tools).toEqual(expect.arrayContaining(['kid_echo', 'kid_ask', 'kid_forever', 'kid_add_tool']));

    const changed = new Promise<void>(resolve =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    await session.call('kid_add_tool', { name: 'late' });
    await changed;
    await until(
      async () => ((await client.listTools()).tools.some(tool => tool.name === 'kid_late') ? true : undefined),
      'kid_late listed',
    );

    const prompt = await until(async () => {
      const listed = (await client.listPrompts()).prompts.some(entry => entry.name === 'kid_greet');
      return listed ? client.getPrompt({ name: 'kid_greet', arguments: { name: 'Ada' } }) : undefined;
    }, 'kid_greet listed');
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Greet Ada.' });
    const read = await until(async () => {
      const listed = (await client.listResources()).resources.some(entry => entry.uri === 'modern://note');
      return listed ? client.readResource({ uri: 'modern://note' }) : undefined;
    }, 'modern://note listed');
    expect(read.contents[0]).toMatchObject({ uri: 'modern://note', text: 'a modern note' });
    await session.close();
  });
});

describe('input_required for a 2025 client', () => {
  test('an elicitation round trip: the 2025 client is asked (labelled with the server), the child gets the answer and its state', async () => {
    const home = await homeWith('modern');
    const session = await legacyClient(home);
    const result = await session.call('kid_ask');
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe('hello octocat (state round-1)');
    // Never passed on as a plain success.
    expect(JSON.stringify(result)).not.toContain('input_required');
    await session.close();
  });

  test('sampling and roots in one round', async () => {
    const home = await homeWith('modern');
    const session = await legacyClient(home);
    await session.call('kid_echo', { text: 'start' });
    const result = await until(async () => {
      const listed = (await session.client.listTools()).tools.some(tool => tool.name === 'kid_sample');
      return listed ? session.call('kid_sample') : undefined;
    }, 'kid_sample listed');
    expect(textOf(result)).toBe('model said hi there; roots file:///work');
    await session.close();
  });

  test(`a child that keeps asking is stopped after ${MAX_INPUT_ROUNDS} rounds with a clear error`, async () => {
    const events = join(await makeHubHome(), 'events');
    const home = await homeWith('modern', events);
    const session = await legacyClient(home);
    await session.call('kid_echo', { text: 'start' });
    const result = (await until(async () => {
      const listed = (await session.client.listTools()).tools.some(tool => tool.name === 'kid_forever');
      return listed ? session.call('kid_forever') : undefined;
    }, 'kid_forever listed')) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(`still asked for input after ${MAX_INPUT_ROUNDS} rounds`);
    const rounds = (await readFile(events, 'utf8')).split('\n').filter(line => line.startsWith('forever'));
    expect(rounds).toHaveLength(MAX_INPUT_ROUNDS + 1);
    await session.close();
  });

  test('the caller cancelling while its client is asked ends the relayed request too', async () => {
    const home = await homeWith('modern');
    const session = await spawnHub(home, { capabilities: { elicitation: { form: {} } } });
    let asked!: () => void;
    const askedNow = new Promise<void>(resolve => (asked = resolve));
    let calls = 0;
    const relayEnded = new Promise<void>(ended =>
      session.client.setRequestHandler(ElicitRequestSchema, (_request, extra) => {
        // The first is answered: the 1.x SDK client cannot cancel a request whose id is 0.
        if ((calls += 1) === 1) return { action: 'accept', content: { name: 'first' } };
        asked();
        return new Promise((_resolve, reject) =>
          extra.signal.addEventListener('abort', () => {
            ended();
            reject(new Error('cancelled'));
          }),
        );
      }),
    );
    expect(textOf(await session.call('kid_ask'))).toBe('hello first (state round-1)');
    const controller = new AbortController();
    const call = session.client.callTool({ name: 'kid_ask', arguments: {} }, undefined, { signal: controller.signal });
    await askedNow;
    controller.abort('changed my mind');
    await expect(call).rejects.toThrow();
    await relayEnded;
    await session.close();
  });

  test('a 2025 client without elicitation: the child is told so in the envelope, and its own error comes back', async () => {
    const home = await homeWith('modern');
    const session = await spawnHub(home);
    // hub offers the child only what this client can answer; the v2 child refuses with -32021.
    await expect(session.call('kid_ask')).rejects.toMatchObject({ code: -32021 });
    await session.close();
  });
});

describe('input_required for a 2026-07-28 client', () => {
  test('passes through unchanged, and the v2 client’s retry with inputResponses reaches the child', async () => {
    const home = await homeWith('modern');
    const client = await v2Client(home, 'pinned', { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', async request => ({
      action: 'accept',
      content: { name: (request.params as { message: string }).message.startsWith('[server') ? 'relabelled' : 'v2' },
    }));
    const result = await client.callTool({ name: 'kid_ask', arguments: {} });
    // Not relabelled by hub: the client answered the child's own request, and retried itself.
    expect(textOf(result as CallToolResult)).toBe('hello v2 (state round-1)');
  });
});

describe('the era probe', () => {
  test(`a modern-only child too slow to answer server/discover in ${PROBE_TIMEOUT_MS} ms is recognised when it refuses initialize`, async () => {
    const home = await homeWith('modern', undefined, PROBE_TIMEOUT_MS + 1000);
    const session = await legacyClient(home);
    expect(textOf(await session.call('kid_echo', { text: 'late' }))).toBe('late');
    expect(textOf(await session.call('kid_ask'))).toBe('hello octocat (state round-1)');
    await session.close();
  });

  test('a 2025 child that answers nothing to server/discover still starts, and its restart is not probed again', async () => {
    const events = join(await makeHubHome(), 'events');
    const home = await makeHubHome();
    const store = openStore(loadConfig({ HUB_HOME: home }).paths);
    await putRecords(
      store,
      commandRecord('silent', [fixture('modern-silent-child.mjs')], {
        env: { SILENT_EVENTS: events },
        tools: [
          { name: 'echo', inputSchema: { type: 'object' } },
          { name: 'crash', inputSchema: { type: 'object' } },
        ],
      }),
    );
    const session = await spawnHub(home);
    expect(textOf(await session.call('silent_echo', { text: 'one' }))).toBe('one');
    await session.call('silent_crash').catch(() => undefined);
    const again = await until(async () => {
      const result = await session.call('silent_echo', { text: 'two' });
      return result.isError === true ? undefined : result;
    }, 'the restarted child');
    expect(textOf(again)).toBe('two');
    const methods = (await readFile(events, 'utf8')).trim().split('\n');
    expect(methods.filter(method => method === 'server/discover')).toHaveLength(1);
    expect(methods.filter(method => method === 'initialize')).toHaveLength(2);
    await session.close();
  });
});
