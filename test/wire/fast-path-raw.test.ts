// The fast lane passes a child's result through unparsed, splicing the caller's id in place of
// ours. A hand-written child answers in several key orders (and with text that looks like our id)
// to show every shape still round-trips, and that isError results are still counted as errors.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, onTestFinished, test } from 'vitest';
import { loadConfig } from '../../src/core/config/config.js';
import { fastResponse } from '../../src/wire/raw-result.js';
import { createFastPath } from '../../src/wire/fast-path.js';
import { openStore } from '../../src/store/store.js';
import { makeHubHome } from '../helpers/home.js';
import { fixture, textOf } from '../helpers/hub.js';
import { commandRecord, putRecords, startHarness, until } from '../proxy/harness.js';

// A child MCP server without the SDK: `order` picks how the tools/call response is written.
const RAW_CHILD = String.raw`
const out = line => process.stdout.write(line + '\n');
require('node:readline').createInterface({ input: process.stdin }).on('line', line => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === 'initialize')
    return out(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1.0.0' } } }));
  if (m.method === 'tools/list')
    return out(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'say', inputSchema: { type: 'object' } }] } }));
  if (m.method !== 'tools/call')
    return out(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no such method' } }));
  const a = m.params.arguments;
  let r = JSON.stringify({ content: [{ type: 'text', text: a.text }], ...(a.isError ? { isError: true } : {}) });
  if (a.spacedError) r = r.replace('"isError":true', '"isError" : true');
  const id = JSON.stringify(m.id);
  if (a.order === 'id-first') out('{"jsonrpc":"2.0","id":' + id + ',"result":' + r + '}');
  else if (a.order === 'id-middle') out('{"id":' + id + ',"result":' + r + ',"jsonrpc":"2.0"}');
  else if (a.order === 'spaced') out('{"jsonrpc": "2.0", "id": ' + id + ', "result": ' + r + '}');
  else if (a.order === 'crlf') out('{"result":' + r + ',"jsonrpc":"2.0","id":' + id + '}\r');
  else out('{"result":' + r + ',"jsonrpc":"2.0","id":' + id + '}');
});
`;

const ORDERS = ['id-last', 'id-first', 'id-middle', 'spaced', 'crlf'];
// Texts that look like the lines around them: our id, a whole response, quotes, non-ASCII.
const TEXTS = [
  'plain',
  ',"jsonrpc":"2.0","id":"hub-1"}',
  '{"jsonrpc":"2.0","id":"hub-2","result":{}}',
  'ends with a backslash \\',
  '"id":"hub-1"',
  'héllo ✓ 😀 \u2028',
  '"isError":true',
];

const rawRecord = () =>
  commandRecord('raw', ['-e', RAW_CHILD], { tools: [{ name: 'say', inputSchema: { type: 'object' } }] });

describe('fast path, results passed through unparsed', () => {
  test('fastResponse takes the two known key orders and leaves everything else to JSON.parse', () => {
    const r = '{"content":[{"type":"text","text":"x\\",\\"id\\":\\"hub-9\\"}"}]}';
    const taken = (line: string, id: string, expected: string) => {
      const found = fastResponse(line);
      expect(found?.id).toBe(id);
      expect(found?.result.lineFor('"c1"')).toBe(`${expected}\n`);
      expect(JSON.parse(expected)).toEqual({ jsonrpc: '2.0', id: 'c1', result: JSON.parse(r) });
    };
    taken(`{"result":${r},"jsonrpc":"2.0","id":"hub-12"}`, 'hub-12', `{"result":${r},"jsonrpc":"2.0","id":"c1"}`);
    taken(`{"jsonrpc":"2.0","id":"hub-3","result":${r}}`, 'hub-3', `{"jsonrpc":"2.0","id":"c1","result":${r}}`);
    for (const line of [
      `{"jsonrpc":"2.0","id":"hub-3","error":{"code":1,"message":"m"}}`,
      `{"jsonrpc":"2.0","error":{"code":1,"message":"m"},"id":"hub-3"}`,
      `{"id":"hub-3","result":${r},"jsonrpc":"2.0"}`,
      `{"result":${r},"jsonrpc":"2.0","id":"hub-x"}`,
      `{"result":${r},"jsonrpc":"2.0","id":7}`,
      `{"result":${r},"jsonrpc":"2.0","id":"hub-3"}\r`,
      `{"result":{"content":[],"isError":true},"jsonrpc":"2.0","id":"hub-3"}`,
      `{"jsonrpc":"2.0","id":"hub-3","result":{"content":[],"isError": true}}`,
      `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"hub-3","progress":1}}`,
    ])
      expect(fastResponse(line)).toBeUndefined();
  });

  test('every key order and tricky text round-trips; ids spliced; isError counted', async () => {
    const home = await makeHubHome();
    const h = await startHarness(home);
    await putRecords(h.store, rawRecord());
    await h.manager.reload();
    const lines: string[] = [];
    const fast = createFastPath(
      name => h.manager.fast(name),
      line => {
        lines.push(line);
        return Promise.resolve();
      },
    );
    const answer = async (id: string | number, args: Record<string, unknown>) => {
      const before = lines.length;
      expect(fast({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'raw.say', arguments: args } })).toBe(
        true,
      );
      await until(() => expect(lines.length).toBe(before + 1));
      const line = lines[before] ?? '';
      expect(line.endsWith('\n') && line.indexOf('\n') === line.length - 1).toBe(true);
      return JSON.parse(line) as { jsonrpc: string; id: unknown; result: CallToolResult };
    };
    let calls = 0;
    for (const order of ORDERS) {
      for (const [i, text] of TEXTS.entries()) {
        // Client ids of both kinds, one of them with characters JSON must escape.
        const id = i % 2 === 0 ? calls : `c"${order}\\${i}`;
        const response = await answer(id, { order, text });
        calls += 1;
        expect(response).toEqual({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });
      }
    }
    const failed = await answer('f1', { order: 'id-last', text: 'it broke', isError: true });
    expect(failed.result).toEqual({ content: [{ type: 'text', text: 'it broke' }], isError: true });
    const spaced = await answer('f2', { order: 'id-first', text: 'spaced break', isError: true, spacedError: true });
    expect(spaced.result.isError).toBe(true);
    const [status] = await h.manager.status('raw');
    expect(status).toMatchObject({ calls: calls + 2, errors: 2, lastError: 'spaced break' });
    // The SDK path (registry.call, in-memory client) still gets a parsed result.
    expect(textOf(await h.call('raw.say', { order: 'id-last', text: 'via sdk' }))).toBe('via sdk');
  });

  test('over stdio: an SDK client gets every order back, 32 calls in flight', async () => {
    const home = await makeHubHome();
    const store = openStore(loadConfig({ HUB_HOME: home }).paths);
    await putRecords(store, rawRecord());
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [fixture('child-fast-hub.mjs')],
      env: { ...process.env, HUB_HOME: home } as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'fast-raw-test', version: '1.0.0' });
    await client.connect(transport);
    onTestFinished(() => client.close());
    const say = async (order: string, text: string) =>
      textOf((await client.callTool({ name: 'raw.say', arguments: { order, text } })) as CallToolResult);
    for (const order of ORDERS) expect(await say(order, TEXTS[1] ?? '')).toBe(TEXTS[1]);
    const jobs = Array.from({ length: 32 }, (_, i) =>
      say(ORDERS[i % ORDERS.length] ?? 'id-last', `${TEXTS[i % 7]} ${i}`),
    );
    expect(await Promise.all(jobs)).toEqual(Array.from({ length: 32 }, (_, i) => `${TEXTS[i % 7]} ${i}`));
  });
});
