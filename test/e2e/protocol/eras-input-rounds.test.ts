// A 2025 child asks the person mid-call, and the client is a 2026-07-28 one (which takes no
// requests from servers): hub answers the client's call input_required with the child's request,
// and the client's retry carries the answer back to the child (docs/protocol-eras.md). Driven by
// the SDK's v2 client pinned to 2026-07-28, which fulfils input_required with its own handlers.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, test, vi } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { fixture } from '../../helpers/hub.js';
import { spawnRawHub } from '../../helpers/raw-rpc.js';
import { v2Client } from '../../helpers/v2-client.js';
import { commandRecord, putRecords } from '../../proxy/harness.js';

type Json = Record<string, unknown>;
const textOf = (result: { content?: unknown }): string =>
  ((result.content as { type: string; text?: string }[] | undefined)?.[0]?.text ?? '') as string;

async function homeWithAsker(): Promise<string> {
  const home = await makeHubHome();
  await putRecords(
    openStore(loadConfig({ HUB_HOME: home }).paths),
    commandRecord('asker', [fixture('child-asker.mjs')], {
      tools: [
        { name: 'ask', inputSchema: { type: 'object' } },
        { name: 'sample', inputSchema: { type: 'object' } },
      ],
    }),
  );
  return home;
}

test('a 2025 child elicits and samples mid-call: a v2 client (2026-07-28) answers through input_required', async () => {
  const home = await homeWithAsker();
  const client = await v2Client(home, 'pinned', { capabilities: { elicitation: { form: {} }, sampling: {} } });
  const asked: string[] = [];
  client.setRequestHandler('elicitation/create', async request => {
    asked.push((request.params as { message: string }).message);
    return { action: 'accept', content: { ok: true } };
  });
  client.setRequestHandler('sampling/createMessage', async () => ({
    role: 'assistant',
    content: { type: 'text', text: 'sampled by v2' },
    model: 'test-model',
  }));
  const elicited = (await client.callTool({ name: 'asker_ask', arguments: { message: 'Proceed?' } })) as CallToolResult;
  expect(JSON.parse(textOf(elicited))).toEqual({ action: 'accept', content: { ok: true } });
  // hub labels whose question it is, as for a 2025 client.
  expect(asked).toEqual([expect.stringContaining('Proceed?')]);
  expect(asked[0]).toMatch(/asker/);
  const sampled = (await client.callTool({ name: 'asker_sample', arguments: {} })) as CallToolResult;
  expect(JSON.parse(textOf(sampled))).toMatchObject({ content: { text: 'sampled by v2' } });
  // Calls after the rounds work as before.
  expect(
    JSON.parse(
      textOf((await client.callTool({ name: 'asker_ask', arguments: { message: 'Again?' } })) as CallToolResult),
    ),
  ).toEqual({
    action: 'accept',
    content: { ok: true },
  });
});

test('on the wire: input_required with hub requestState, the retry under a new id, an unknown requestState refused', async () => {
  const home = await homeWithAsker();
  const hub = spawnRawHub(home);
  const envelope: Json = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  };
  hub.write({
    id: 'c1',
    method: 'tools/call',
    params: { name: 'asker_ask', arguments: { message: 'Sure?' }, _meta: envelope },
  });
  const first = (await hub.response('c1')).result as Json;
  expect(first).toMatchObject({
    resultType: 'input_required',
    inputRequests: { '1': { method: 'elicitation/create', params: { message: expect.stringContaining('Sure?') } } },
    requestState: expect.stringMatching(/^hub-input:/),
  });
  hub.write({
    id: 'c2',
    method: 'tools/call',
    params: {
      name: 'asker_ask',
      arguments: { message: 'Sure?' },
      inputResponses: { '1': { action: 'decline' } },
      requestState: first.requestState,
      _meta: envelope,
    },
  });
  const second = (await hub.response('c2')).result as Json;
  expect(second.resultType).toBe('complete');
  expect(JSON.parse(textOf(second))).toEqual({ action: 'decline' });
  // The same state again: that round is over.
  hub.write({
    id: 'c3',
    method: 'tools/call',
    params: {
      name: 'asker_ask',
      arguments: {},
      inputResponses: { '1': {} },
      requestState: first.requestState,
      _meta: envelope,
    },
  });
  expect((await hub.response('c3')).error).toMatchObject({
    code: -32602,
    message: expect.stringMatching(/not one hub knows/),
  });
  await hub.end();
});

test('a 2026-07-28 child’s prompts/get that needs input, for a v2 client (2026-07-28): hub’s rounds carry the question and the answer', async () => {
  const home = await makeHubHome();
  await putRecords(
    openStore(loadConfig({ HUB_HOME: home }).paths),
    commandRecord('kid', [fixture('modern-child.mjs')], {
      tools: [{ name: 'echo', inputSchema: { type: 'object' } }],
    }),
  );
  const client = await v2Client(home, 'pinned', { capabilities: { elicitation: { form: {} } } });
  const asked: string[] = [];
  client.setRequestHandler('elicitation/create', async request => {
    asked.push((request.params as { message: string }).message);
    return { action: 'accept', content: { ok: true } };
  });
  // Started by a call; its prompts are listed once read.
  await client.callTool({ name: 'kid_echo', arguments: { text: 'start' } });
  await vi.waitFor(
    async () => expect((await client.listPrompts()).prompts.map(prompt => prompt.name)).toContain('kid_careful'),
    { timeout: 15_000, interval: 100 },
  );
  const prompt = await client.getPrompt({ name: 'kid_careful', arguments: { name: 'Ada' } });
  expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Greet Ada (ok true, state prompt-1).' });
  expect(asked).toEqual([expect.stringContaining('Greet Ada?')]);
});
