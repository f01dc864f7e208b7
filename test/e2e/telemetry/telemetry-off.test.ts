// Issue 31 item 3: with nothing configured hub loads no @opentelemetry module at all (the cold
// start and the hot path stay as they were); with OTEL_SDK_DISABLED neither; grpc is refused
// once in the log; an unreachable collector never fails a call and is said once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect, test, vi } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { fixture, SERVER_JS } from '../../helpers/hub.js';
import { noteHubHome } from '../../helpers/shared-hub.js';
import { commandRecord, putRecords } from '../../proxy/harness.js';

const TRACE_HOOK = fixture('module-trace/register.mjs');
const TRACE_CHILD = fixture('trace-child.mjs');

const hubLog = (home: string): string => {
  try {
    return readFileSync(join(home, 'logs', 'hub.log'), 'utf8');
  } catch {
    return '';
  }
};
const count = (text: string, part: string): number => text.split(part).length - 1;

// An in-process hub (HUB_SHARED=off) under the module trace: it is the process that serves the
// calls, so what it loads is what a hub with this env loads.
async function tracedRun(
  env: Record<string, string>,
  calls = 3,
  unreachable = false,
): Promise<{ home: string; modules: string[]; seen: string }> {
  const home = await makeHubHome();
  noteHubHome(home);
  await putRecords(
    openStore(loadConfig({ HUB_HOME: home }).paths),
    commandRecord('traced', [TRACE_CHILD], {
      tools: [{ name: 'meta', description: 'Answers with the request _meta.', inputSchema: { type: 'object' } }],
    }),
  );
  const trace = join(home, 'modules.txt');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', TRACE_HOOK, SERVER_JS],
    env: {
      HUB_HOME: home,
      HUB_SHARED: 'off',
      HUB_LOG_LEVEL: 'info',
      HUB_TEST_MODULE_TRACE: trace,
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      ...env,
    },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', () => undefined);
  const client = new Client({ name: 'hub-test', version: '1.0.0' });
  await client.connect(transport);
  let seen = '';
  try {
    const name = (await client.listTools()).tools.map(tool => tool.name).find(tool => /traced.meta$/.test(tool))!;
    for (let i = 0; i < calls; i++) {
      const result = (await client.callTool({
        name,
        arguments: {},
        _meta: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      seen = result.content[0]?.type === 'text' ? result.content[0].text : '';
    }
    if (unreachable) {
      // The batch goes out 50 ms after the spans end: the unreachable collector is said once.
      await vi.waitFor(() => expect(hubLog(home)).toContain('telemetry: could not export'), { timeout: 20_000 });
      const list = (await client.callTool({ name: 'list_processes', arguments: {} })) as CallToolResult;
      expect(list.isError).toBeFalsy();
    }
  } finally {
    await client.close();
  }
  return { home, modules: readFileSync(trace, 'utf8').split('\n').filter(Boolean), seen };
}

const otel = (modules: string[]) =>
  modules.filter(url => /\/node_modules\/@opentelemetry\/|\/dist\/core\/otel-sdk\.js$/.test(url));

test('nothing configured: no @opentelemetry module is loaded, and the traceparent goes on as it came', async () => {
  const { modules, seen } = await tracedRun({});
  expect(JSON.parse(seen)).toMatchObject({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' });
  // The hub did serve the calls in this process.
  expect(modules.some(url => url.endsWith('/dist/proxy/calls/forward.js'))).toBe(true);
  expect(otel(modules)).toEqual([]);
});

test('OTEL_SDK_DISABLED=true: nothing loaded even with an endpoint; grpc is refused, said once', async () => {
  const disabled = await tracedRun({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
  expect(otel(disabled.modules)).toEqual([]);
  const grpc = await tracedRun(
    { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
    1,
  );
  expect(otel(grpc.modules)).toEqual([]);
  expect(count(hubLog(grpc.home), 'OTEL_EXPORTER_OTLP_PROTOCOL=grpc')).toBe(1);
});

test('an unreachable collector: every call answers, the SDK is loaded, the failure is said once', async () => {
  // A port that was just free: nothing listens there.
  const probe = createServer();
  await new Promise<void>(resolve => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise(resolve => probe.close(resolve));
  const { home, modules } = await tracedRun(
    { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_BSP_SCHEDULE_DELAY: '50' },
    5,
    true,
  );
  expect(otel(modules).some(url => url.includes('/@opentelemetry/sdk-trace-base/'))).toBe(true);
  expect(count(hubLog(home), 'telemetry: could not export')).toBe(1);
});
