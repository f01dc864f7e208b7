// A child's JSON-RPC error reaches the client as a direct connection shows it (code, message,
// data, one `MCP error` prefix), on the SDK path and on the fast path; registry.call labels it
// as the child's, and hub's own unknown-tool error carries one prefix too.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, onTestFinished, test } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { fixture, spawnHub, startHubInProcess, textOf } from '../../helpers/hub.js';
import { commandRecord, putRecords, startHarness } from '../harness.js';

const HOSTILE = fixture('hostile-child.mjs');
const hostileRecord = () =>
  commandRecord('bad', [HOSTILE], { tools: [{ name: 'say', inputSchema: { type: 'object' } }] });

const ERRORS = [
  {
    code: -32602,
    message: 'Tool nope not found',
    data: { list: [1, 'two', null, { deep: { deeper: [true] } }], s: 'é\u2028' },
  },
  { code: -32000, message: 'MCP error -32000: already prefixed by the child', data: 'a plain string' },
  { code: 42, message: 'odd code, null data', data: null },
  { code: -32603, message: 'no data at all' },
];

type Seen = { code: number; message: string; data: unknown };
async function errorOf(call: () => Promise<unknown>): Promise<Seen> {
  const error = await call().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(McpError);
  const { code, message, data } = error as McpError;
  return { code, message, data };
}

async function direct(): Promise<Client> {
  const client = new Client({ name: 'direct', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [HOSTILE], stderr: 'pipe' }));
  onTestFinished(() => client.close());
  return client;
}

describe('child JSON-RPC errors', () => {
  test('reach an SDK client exactly as a direct connection shows them (SDK path and fast path)', async () => {
    const home = await makeHubHome();
    await putRecords(openStore(loadConfig({ HUB_HOME: home }).paths), hostileRecord());
    const child = await direct();
    const h = await startHarness(home);
    const overStdio = await spawnHub(home);
    onTestFinished(() => overStdio.close());
    for (const error of ERRORS) {
      const args = { mode: 'error', ...error };
      const expected = await errorOf(() => child.callTool({ name: 'say', arguments: args }));
      expect(expected.message).toBe(`MCP error ${error.code}: ${error.message}`);
      expect(await errorOf(() => h.client.callTool({ name: 'bad.say', arguments: args }))).toEqual(expected);
      expect(await errorOf(() => overStdio.client.callTool({ name: 'bad.say', arguments: args }))).toEqual(expected);
    }
  });

  test("registry.call reports the child error as the child's, with its code, message and data", async () => {
    const home = await makeHubHome();
    await putRecords(openStore(loadConfig({ HUB_HOME: home }).paths), hostileRecord());
    const hub = await startHubInProcess(home);
    onTestFinished(() => hub.close());
    const result = await hub.call('registry.call', {
      server: 'bad',
      tool: 'say',
      arguments: { mode: 'error', code: -32602, message: 'Tool nope not found', data: { why: 'odd' } },
    });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toMatch(
      /^CHILD_ERROR: Server "bad" answered say with JSON-RPC error -32602: Tool nope not found \(data: \{"why":"odd"\}\)/,
    );
    expect(text).not.toContain('MCP error');
  });

  test('an unknown tool reads with one "MCP error -32602:" prefix', async () => {
    const home = await makeHubHome();
    const hub = await startHubInProcess(home);
    onTestFinished(() => hub.close());
    const { code, message } = await errorOf(() => hub.client.callTool({ name: 'nope_nothing', arguments: {} }));
    expect(code).toBe(-32602);
    expect(message).toMatch(/^MCP error -32602: Unknown tool: nope_nothing\b/);
    expect(message.match(/MCP error/g)).toHaveLength(1);
  });
});
