// Issue 31 item 3: OpenTelemetry through the built hub (docs/telemetry.md). A local OTLP/HTTP
// receiver gets hub's spans with their parent links: the client's span is the parent of hub's,
// and the child is handed a traceparent whose parent is hub's span. Metrics go the same way; no
// secret value is in anything exported; a malformed traceparent never fails a call.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, test, vi } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { fixture, spawnHub, textOf } from '../../helpers/hub.js';
import { otlpReceiver } from '../../helpers/otlp-receiver.js';
import { commandRecord, putRecords } from '../../proxy/harness.js';

const TRACE_CHILD = fixture('trace-child.mjs');
const ENV_SECRET = 'sk-env-secret-7f3a9c';
const ARG_SECRET = 'sk-arg-secret-41d2e8';
const HEADER_SECRET = 'hdr-secret-9b8c7d';
const CLIENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';

async function tracedHome(): Promise<string> {
  const home = await makeHubHome();
  await putRecords(
    openStore(loadConfig({ HUB_HOME: home }).paths),
    commandRecord('traced', [TRACE_CHILD], {
      env: { TRACE_TOKEN: ENV_SECRET },
      tools: [
        { name: 'meta', description: 'Answers with the request _meta.', inputSchema: { type: 'object' } },
        { name: 'fail', description: 'Answers isError.', inputSchema: { type: 'object' } },
      ],
    }),
  );
  return home;
}

const logLines = (home: string, text: string): number =>
  readFileSync(join(home, 'logs', 'hub.log'), 'utf8')
    .split('\n')
    .filter(line => line.includes(text)).length;

test('spans reach an OTLP/HTTP receiver with their parent links, metrics too, and no secret', async () => {
  const receiver = await otlpReceiver();
  const home = await tracedHome();
  const hub = await spawnHub(home, {
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer ${HEADER_SECRET}`,
      OTEL_SERVICE_NAME: 'hub-under-test',
      OTEL_BSP_SCHEDULE_DELAY: '50',
      OTEL_METRIC_EXPORT_INTERVAL: '200',
    },
  });
  try {
    const names = (await hub.client.listTools()).tools.map(tool => tool.name);
    const meta = names.find(name => /traced.meta$/.test(name))!;
    const fail = names.find(name => /traced.fail$/.test(name))!;
    // The shared hub loads the SDK in the background: its log says when it exports.
    await vi.waitFor(() => expect(logLines(home, 'telemetry: exporting')).toBe(1), { timeout: 20_000 });

    const traceparent = `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`;
    const answered = (await hub.client.callTool({
      name: meta,
      arguments: { token: ARG_SECRET },
      _meta: { traceparent, tracestate: 'vendor=kept' },
    })) as CallToolResult;
    const seen = JSON.parse(textOf(answered)) as { traceparent: string; tracestate?: string };
    // The child's traceparent: the client's trace, with hub's span as its parent.
    const [, childTrace, hubSpanId] = seen.traceparent.split('-');
    expect(childTrace).toBe(CLIENT_TRACE);
    expect(hubSpanId).not.toBe(CLIENT_SPAN);
    expect(seen.tracestate).toBe('vendor=kept');

    // A malformed traceparent (twice) and a tool error: every call answers.
    for (const bad of ['not-a-traceparent', '00-zz-yy-01']) {
      const result = (await hub.client.callTool({
        name: meta,
        arguments: {},
        _meta: { traceparent: bad },
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
    }
    expect(((await hub.client.callTool({ name: fail, arguments: {} })) as CallToolResult).isError).toBe(true);
    // A process started by hub's own tool: its span is the tool call's child.
    const started = (await hub.client.callTool({
      name: names.find(name => /start.process$/.test(name))!,
      arguments: { command: process.execPath, args: ['-e', ''], name: 'traced-proc' },
      _meta: { traceparent },
    })) as CallToolResult;
    expect(started.isError).toBeFalsy();
    // A prompt of the child: prompts/get is traced and passed on the same way.
    const prompt = (await hub.client.listPrompts()).prompts.find(listed => /traced.meta$/.test(listed.name))!;
    const got = await hub.client.getPrompt({ name: prompt.name, _meta: { traceparent } });
    const promptContent = got.messages[0]!.content;
    const promptSeen = JSON.parse(promptContent.type === 'text' ? promptContent.text : '{}') as { traceparent: string };
    const [, promptTrace, promptSpanId] = promptSeen.traceparent.split('-');
    expect(promptTrace).toBe(CLIENT_TRACE);
    // An install (a command, with a secret in its env): its span is the tool call's child.
    const installed = (await hub.client.callTool({
      name: names.find(name => /registry.install$/.test(name))!,
      arguments: { command: process.execPath, args: [TRACE_CHILD], name: 'second', env: { SECOND_TOKEN: ENV_SECRET } },
      _meta: { traceparent },
    })) as CallToolResult;
    expect(installed.isError).toBeFalsy();

    const hubSpan = await vi.waitFor(
      () => {
        const span = receiver.spans().find(candidate => candidate.spanId === hubSpanId);
        expect(span).toBeDefined();
        return span!;
      },
      { timeout: 20_000 },
    );
    expect(hubSpan.traceId).toBe(CLIENT_TRACE);
    expect(hubSpan.parentSpanId).toBe(CLIENT_SPAN);
    expect(hubSpan.name).toBe('tools/call traced.meta');
    expect(hubSpan.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'meta',
      'hub.server': 'traced',
      'hub.outcome': 'ok',
    });
    expect(hubSpan.attributes['mcp.session.id']).toMatch(/^s\d+$/);

    const spans = await vi.waitFor(
      () => {
        const all = receiver.spans();
        expect(all.some(span => span.name === 'hub.process.start')).toBe(true);
        expect(all.some(span => span.name === 'hub.install')).toBe(true);
        expect(all.some(span => span.name === 'prompts/get traced')).toBe(true);
        expect(all.filter(span => span.name === 'tools/call traced.meta')).toHaveLength(3);
        expect(all.some(span => span.name === 'tools/call traced.fail')).toBe(true);
        return all;
      },
      { timeout: 20_000 },
    );
    // The malformed ones start traces of their own.
    expect(spans.filter(span => span.name === 'tools/call traced.meta' && !span.parentSpanId)).toHaveLength(2);
    expect(spans.find(span => span.name === 'tools/call traced.fail')?.attributes).toMatchObject({
      'hub.outcome': 'tool_error',
      'error.type': 'tool_error',
    });
    const startCall = spans.find(span => /^tools\/call start.process$/.test(span.name))!;
    expect(startCall.parentSpanId).toBe(CLIENT_SPAN);
    const processSpan = spans.find(span => span.name === 'hub.process.start')!;
    expect(processSpan.parentSpanId).toBe(startCall.spanId);
    expect(processSpan.attributes['hub.process.name']).toBe('traced-proc');
    const promptSpan = spans.find(span => span.spanId === promptSpanId)!;
    expect(promptSpan).toMatchObject({ name: 'prompts/get traced', parentSpanId: CLIENT_SPAN });
    expect(promptSpan.attributes).toMatchObject({ 'mcp.method.name': 'prompts/get', 'hub.outcome': 'ok' });
    const installCall = spans.find(span => /^tools\/call registry.install$/.test(span.name))!;
    const installSpan = spans.find(span => span.name === 'hub.install')!;
    expect(installSpan.parentSpanId).toBe(installCall.spanId);
    expect(installSpan.attributes).toMatchObject({
      'hub.install.kind': 'command',
      'hub.server': 'second',
      'hub.outcome': 'ok',
    });

    // Metrics on the same exporter: calls and errors per server and tool, and the duration.
    await vi.waitFor(
      () => {
        const metrics = receiver.posts.filter(post => post.path === '/v1/metrics').map(post => post.body.toString());
        const last = metrics.at(-1) ?? '';
        for (const name of ['hub.tool.calls', 'hub.tool.errors', 'hub.tool.duration']) expect(last).toContain(name);
        expect(last).toContain('hub-under-test');
      },
      { timeout: 20_000 },
    );
    // OTEL_EXPORTER_OTLP_HEADERS reached the receiver; no secret value is in anything exported.
    expect(receiver.posts.every(post => post.authorization === `Bearer ${HEADER_SECRET}`)).toBe(true);
    for (const post of receiver.posts)
      for (const secret of [ENV_SECRET, ARG_SECRET, HEADER_SECRET]) expect(post.body.toString()).not.toContain(secret);
    // Said once in hub's log, however many came.
    expect(logLines(home, 'is not W3C trace context')).toBe(1);
  } finally {
    await hub.close();
  }
});

test('OTEL_EXPORTER_OTLP_PROTOCOL defaults to http/protobuf', async () => {
  const receiver = await otlpReceiver();
  const home = await tracedHome();
  const hub = await spawnHub(home, {
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '50' },
  });
  try {
    const meta = (await hub.client.listTools()).tools.map(tool => tool.name).find(name => /traced.meta$/.test(name))!;
    await vi.waitFor(() => expect(logLines(home, 'telemetry: exporting')).toBe(1), { timeout: 20_000 });
    await hub.client.callTool({ name: meta, arguments: {} });
    await vi.waitFor(
      () => {
        const post = receiver.posts.find(candidate => candidate.path === '/v1/traces');
        expect(post?.contentType).toBe('application/x-protobuf');
        // Protobuf keeps strings as their bytes.
        expect(post?.body.includes('tools/call traced.meta')).toBe(true);
      },
      { timeout: 20_000 },
    );
  } finally {
    await hub.close();
  }
});
