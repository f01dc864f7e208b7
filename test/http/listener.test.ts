// The listener's bounds (sessions at once, idle sessions), which `hub serve` sets to defaults too
// large to reach in a test: listenHttp in this process on a real core, real HTTP on 127.0.0.1,
// the SDK's StreamableHTTPClientTransport.
import { expect, onTestFinished, test } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
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

test('beyond maxSessions an initialize gets 503 with a JSON-RPC error; a session that ends makes room', async () => {
  const { listener, core } = await listen({ maxSessions: 2 });
  const a = await connectHttp(listener.url, TOKEN);
  await connectHttp(listener.url, TOKEN);
  expect(listener.sessionCount()).toBe(2);
  expect(core.sessionCount()).toBe(2);
  const third = await rawRequest(listener.url, {
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      Authorization: `Bearer ${TOKEN}`,
    },
    body: INITIALIZE,
  });
  expect(third.status).toBe(503);
  expect(JSON.parse(third.body).error.message).toMatch(/at most 2 HTTP sessions/);
  await a.transport.terminateSession();
  await until(() => expect(core.sessionCount()).toBe(1));
  await connectHttp(listener.url, TOKEN);
  expect(listener.sessionCount()).toBe(2);
});

const headers = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
  Authorization: `Bearer ${TOKEN}`,
};

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
  await new Promise(resolve => setTimeout(resolve, 900));
  expect((await listening.client.listTools()).tools.length).toBeGreaterThan(0);

  await listener.close();
  expect(core.sessionCount()).toBe(0);
});
