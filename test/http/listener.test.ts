// The listener's bounds (sessions at once, idle sessions: a session whose client went away ends,
// and a new client makes room by ending the longest-idle one), which `hub serve` sets to defaults too
// large to reach in a test: listenHttp in this process on a real core, real HTTP on 127.0.0.1,
// the SDK's StreamableHTTPClientTransport.
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, onTestFinished, test } from 'vitest';
import { loadConfig } from '../../src/core/config/config.js';
import { silentLogger } from '../../src/core/logger.js';
import { createHubCore } from '../../src/hub.js';
import { listenHttp } from '../../src/http/listener.js';
import { openStore } from '../../src/store/store.js';
import { makeHubHome } from '../helpers/home.js';
import { INITIALIZE, connectHttp, rawRequest } from '../helpers/serve.js';
import { until } from '../proxy/harness.js';

const TOKEN = 't'.repeat(43);

async function listen(options: { maxSessions?: number; sessionIdleMs?: number }) {
  const home = await makeHubHome();
  const config = loadConfig({ HUB_HOME: home });
  const core = createHubCore({ config, log: silentLogger, store: openStore(config.paths) });
  const listener = await listenHttp(core, { host: '127.0.0.1', port: 0, token: TOKEN, log: silentLogger, ...options });
  onTestFinished(async () => {
    await listener.close();
    await core.close();
  });
  return { listener, core };
}

const headers = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
  Authorization: `Bearer ${TOKEN}`,
};

/** A raw client: initialize, then requests on its session id (no GET stream, as a vanished client). */
async function rawSession(url: string) {
  const opened = await rawRequest(url, { headers, body: INITIALIZE });
  expect(opened.status).toBe(200);
  const id = String(opened.headers['mcp-session-id']);
  const post = (message: object) =>
    rawRequest(url, { headers: { ...headers, 'Mcp-Session-Id': id }, body: JSON.stringify(message) });
  expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
  return {
    id,
    post,
    call: (name: string, args: object) =>
      post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args } }),
  };
}

// The JSON-RPC answer in an SSE or JSON body.
const answerOf = (body: string): { result?: { isError?: boolean; structuredContent?: { ready?: boolean } } } =>
  JSON.parse(/^data: (.*)$/m.exec(body)?.[1] ?? body);

/** A start_process call that stays in progress until release(): its process waits for a file. */
async function gatedCall(session: Awaited<ReturnType<typeof rawSession>>) {
  const dir = await mkdtemp(join(tmpdir(), 'hub-gate-'));
  const [started, go] = [join(dir, 'started'), join(dir, 'go')];
  const release = () => writeFile(go, '');
  onTestFinished(release);
  const answer = session.call('start_process', {
    command: `touch ${started}; while [ ! -e ${go} ]; do sleep 0.05; done; echo ready`,
    cwd: dir,
    wait_for: { pattern: 'ready', timeout_ms: 60_000 },
  });
  let ended: string | undefined;
  void answer.then(done => (ended = done.body));
  await until(() => expect(ended ?? existsSync(started)).toBe(true), 20_000);
  return { answer, release };
}

test('at maxSessions a new client ends the longest-idle session instead of getting 503', async () => {
  const { listener, core } = await listen({ maxSessions: 2 });
  const a = await rawSession(listener.url);
  const b = await rawSession(listener.url);
  // a is used again: b is now the one that waited longest for its client.
  expect((await a.post({ jsonrpc: '2.0', id: 3, method: 'tools/list' })).status).toBe(200);
  const c = await rawSession(listener.url);
  expect(listener.sessionCount()).toBe(2);
  await until(() => expect(core.sessionCount()).toBe(2));
  expect((await b.post({ jsonrpc: '2.0', id: 4, method: 'tools/list' })).status).toBe(404);
  expect((await a.post({ jsonrpc: '2.0', id: 5, method: 'tools/list' })).status).toBe(200);
  expect((await c.post({ jsonrpc: '2.0', id: 6, method: 'tools/list' })).status).toBe(200);
  // A client listening on GET (the SDK's) is ended before one with a call in progress, after every quiet one.
  const listening = await connectHttp(listener.url, TOKEN);
  expect(listener.sessionCount()).toBe(2);
  expect((await a.post({ jsonrpc: '2.0', id: 7, method: 'tools/list' })).status).toBe(404);
  expect((await listening.client.listTools()).tools.length).toBeGreaterThan(0);
});

test('a session with a call in progress is neither idle nor ended for a new client; when every one is busy, 503', async () => {
  const { listener } = await listen({ maxSessions: 2, sessionIdleMs: 300 });
  const busy = await rawSession(listener.url);
  const first = await gatedCall(busy);
  // Opened after the busy one's last request, and quiet: the idle sweep ends it, not the busy one.
  const quiet = await rawSession(listener.url);
  await until(() => expect(listener.sessionCount()).toBe(1), 20_000);
  expect((await quiet.post({ jsonrpc: '2.0', id: 3, method: 'tools/list' })).status).toBe(404);
  const other = await rawSession(listener.url);
  const second = await gatedCall(other);
  // Full, and both have a call in progress: still bounded.
  const refused = await rawRequest(listener.url, { headers, body: INITIALIZE });
  expect(refused.status).toBe(503);
  expect(JSON.parse(refused.body).error.message).toMatch(/at most 2 HTTP sessions .*call in progress/);
  for (const call of [first, second]) {
    await call.release();
    const done = await call.answer;
    expect(done.status).toBe(200);
    expect(answerOf(done.body).result).toMatchObject({ structuredContent: { ready: true } });
  }
  expect(listener.sessionCount()).toBe(2);
  await rawSession(listener.url);
  expect(listener.sessionCount()).toBe(2);
});

test('a session with no request and no open stream for sessionIdleMs is closed (its hub session too); one listening on GET is not; close() ends the rest', async () => {
  const { listener, core } = await listen({ sessionIdleMs: 300 });
  // A client that initialized and went away without DELETE (no GET stream).
  const opened = await rawRequest(listener.url, { headers, body: INITIALIZE });
  expect(opened.status).toBe(200);
  const id = String(opened.headers['mcp-session-id']);
  // The SDK client keeps a GET stream open for notifications: listening, not idle.
  const listening = await connectHttp(listener.url, TOKEN);
  expect(core.sessionCount()).toBe(2);
  await until(() => expect(core.sessionCount()).toBe(1));
  const gone = await rawRequest(listener.url, {
    headers: { ...headers, 'Mcp-Session-Id': id },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  });
  expect(gone.status).toBe(404);
  // Another idle period, seen end to end: a second quiet session comes and is closed for idleness.
  expect((await rawRequest(listener.url, { headers, body: INITIALIZE })).status).toBe(200);
  expect(core.sessionCount()).toBe(2);
  await until(() => expect(core.sessionCount()).toBe(1));
  expect((await listening.client.listTools()).tools.length).toBeGreaterThan(0);

  await listener.close();
  expect(core.sessionCount()).toBe(0);
});

test('hub-mcp serve takes its bounds from config.json serve.sessionIdleMs and serve.maxSessions (10 minutes and 64 by default)', async () => {
  const home = await makeHubHome();
  expect(loadConfig({ HUB_HOME: home }).serve).toEqual({ sessionIdleMs: 600_000, maxSessions: 64 });
  await writeFile(join(home, 'config.json'), JSON.stringify({ serve: { sessionIdleMs: 120_000, maxSessions: 8 } }));
  expect(loadConfig({ HUB_HOME: home }).serve).toEqual({ sessionIdleMs: 120_000, maxSessions: 8 });
  await writeFile(join(home, 'config.json'), JSON.stringify({ serve: { sessionIdleMs: 5 } }));
  const bad = loadConfig({ HUB_HOME: home });
  expect(bad.serve.sessionIdleMs).toBe(600_000);
  expect(bad.warnings.join('\n')).toMatch(/serve\.sessionIdleMs/);
});
