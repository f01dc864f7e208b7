// Issue 15 item 4: `hub serve` answers MCP over Streamable HTTP on 127.0.0.1, one hub session per
// Mcp-Session-Id, behind the bearer token in $HUB_HOME/http-token. Real `hub serve` processes
// (dist/server.js), the SDK's StreamableHTTPClientTransport and Client, a real child server
// (test/fixtures/echo-server.mjs), raw node:http requests for what a client would never send.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { cli } from '../../helpers/cli.js';
import { makeHubHome, sharedFile } from '../../helpers/home.js';
import { SERVER_JS, fixture, textOf } from '../../helpers/hub.js';
import { isAlive } from '../../helpers/processes.js';
import { INITIALIZE, connectHttp, rawRequest, startServe, type Served } from '../../helpers/serve.js';
import { spawnCount, until } from '../../proxy/harness.js';

const ECHO = fixture('echo-server.mjs');
const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

const rpcError = (body: string) => (JSON.parse(body) as { error: { code: number; message: string }; id: null }).error;

/** A session still works: the server survived whatever came before. */
async function stillServes(served: Served): Promise<void> {
  const session = await connectHttp(served.url, served.token());
  const listed = await session.client.listTools();
  expect(listed.tools.map(tool => tool.name)).toContain('list_processes');
  await session.client.close();
}

test('initialize, tools/list, hub’s own tool and a proxied child’s tool over HTTP; two sessions at once share nothing they should not; Ctrl-C closes the child', async () => {
  const home = await makeHubHome();
  const served = await startServe(home);
  expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  expect(served.output()).toContain(join(home, 'http-token'));
  expect(statSync(join(home, 'http-token')).mode & 0o777).toBe(0o600);

  const a = await connectHttp(served.url, served.token(), 'client-a');
  expect(a.client.getServerVersion()?.name).toBe('hub');
  expect((await a.client.listTools()).tools.map(tool => tool.name)).toEqual(
    expect.arrayContaining(['registry_install', 'list_processes', 'get_free_port']),
  );
  const port = await a.call('get_free_port', {});
  expect(port.isError, textOf(port)).toBeFalsy();

  const spawnLog = sharedFile(home, 'echo-spawns.log');
  const installed = await a.call('registry_install', {
    command: process.execPath,
    args: [ECHO],
    name: 'ec',
    env: { ECHO_SPAWN_LOG: spawnLog },
  });
  expect(installed.isError, textOf(installed)).toBeFalsy();
  await until(async () => expect((await a.client.listTools()).tools.map(tool => tool.name)).toContain('ec_echo'));
  const echoed = await a.call('ec_echo', { text: 'over http' });
  expect(textOf(echoed)).toContain('over http');

  // A second session at the same time, with its own Mcp-Session-Id.
  const b = await connectHttp(served.url, served.token(), 'client-b');
  expect(b.transport.sessionId).toBeDefined();
  expect(b.transport.sessionId).not.toBe(a.transport.sessionId);
  const [fromA, fromB] = await Promise.all([a.call('ec_echo', { text: 'a' }), b.call('ec_echo', { text: 'b' })]);
  expect(textOf(fromA)).toContain('a');
  expect(textOf(fromB)).toContain('b');
  expect(spawnCount(spawnLog)).toBeGreaterThanOrEqual(1);

  // Ctrl-C: exit 0, and no child server left running.
  // Found by their environment: a sandboxed child's own pid (in the spawn log) is its namespace's.
  const pids = pidsWithEnv(`ECHO_SPAWN_LOG=${spawnLog}`);
  expect(pids.length).toBeGreaterThanOrEqual(1);
  expect(await served.stop()).toBe(0);
  expect(served.output()).toContain('hub-mcp serve stopped.');
  await until(() => expect(pids.filter(isAlive)).toEqual([]));
});

/** Processes whose environment holds this KEY=value (readable: they are the test's own user's). */
function pidsWithEnv(entry: string): number[] {
  return readdirSync('/proc')
    .filter(name => /^\d+$/.test(name))
    .map(Number)
    .filter(pid => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(entry);
      } catch {
        return false;
      }
    });
}

test('no token, a wrong token, a foreign Host or Origin: 401/403 with a JSON-RPC error, no CORS headers, nothing read; the server serves on', async () => {
  const home = await makeHubHome();
  const served = await startServe(home);
  const good = `Bearer ${served.token()}`;

  const none = await rawRequest(served.url, { headers: JSON_HEADERS, body: INITIALIZE });
  expect(none.status).toBe(401);
  expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
  expect(rpcError(none.body).message).toMatch(/Authorization: Bearer/);

  const wrong = await rawRequest(served.url, {
    headers: { ...JSON_HEADERS, Authorization: 'Bearer nope' },
    body: INITIALIZE,
  });
  expect(wrong.status).toBe(401);
  expect(rpcError(wrong.body).message).toMatch(/wrong token/);
  // The token, one character off.
  const near = served.token().slice(0, -1) + (served.token().endsWith('A') ? 'B' : 'A');
  expect(
    (await rawRequest(served.url, { headers: { ...JSON_HEADERS, Authorization: `Bearer ${near}` }, body: INITIALIZE }))
      .status,
  ).toBe(401);

  // DNS rebinding: a page on evil.example whose name resolves to 127.0.0.1 sends its own Host.
  const host = await rawRequest(served.url, {
    headers: { ...JSON_HEADERS, Authorization: good, Host: `evil.example:${served.port}` },
    body: INITIALIZE,
  });
  expect(host.status).toBe(403);
  expect(rpcError(host.body).message).toMatch(/Host "evil\.example/);

  const origin = await rawRequest(served.url, {
    headers: { ...JSON_HEADERS, Authorization: good, Origin: 'https://evil.example' },
    body: INITIALIZE,
  });
  expect(origin.status).toBe(403);
  expect(rpcError(origin.body).message).toMatch(/Origin/);
  // Another port on localhost is another origin.
  const otherPort = await rawRequest(served.url, {
    headers: { ...JSON_HEADERS, Authorization: good, Origin: 'http://localhost:3000' },
    body: INITIALIZE,
  });
  expect(otherPort.status).toBe(403);
  // A CORS preflight gets no Access-Control-* header: a browser never reads hub's answers.
  const preflight = await rawRequest(served.url, {
    method: 'OPTIONS',
    headers: {
      Authorization: good,
      Origin: `http://127.0.0.1:${served.port}`,
      'Access-Control-Request-Method': 'POST',
    },
  });
  expect(preflight.status).toBe(405);
  for (const answer of [none, wrong, host, origin, preflight]) {
    expect(Object.keys(answer.headers).filter(name => name.startsWith('access-control-'))).toEqual([]);
    expect(answer.body).not.toMatch(/at .*\.js:\d+/);
  }
  // This listener's own origin is fine.
  const own = await rawRequest(served.url, {
    headers: { ...JSON_HEADERS, Authorization: good, Origin: `http://127.0.0.1:${served.port}` },
    body: INITIALIZE,
  });
  expect(own.status).toBe(200);
  await stillServes(served);
  expect(await served.stop()).toBe(0);
});

test('malformed bodies, wrong method or content type, unknown or missing session, too large: the right status and a JSON-RPC error, never a stack; the server serves on', async () => {
  const home = await makeHubHome();
  const served = await startServe(home);
  const auth = { Authorization: `Bearer ${served.token()}` };
  const post = (body: string | Buffer, headers: Record<string, string> = {}) =>
    rawRequest(served.url, { headers: { ...JSON_HEADERS, ...auth, ...headers }, body });

  const cases: [string, Promise<{ status: number; body: string }>, number, number][] = [
    ['not JSON', post('{"jsonrpc": "2.0", "id": 1, "method": '), 400, -32700],
    ['not JSON either', post('\u0000\u00ff garbage'), 400, -32700],
    ['no initialize first', post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })), 400, -32000],
    [
      'unknown session',
      post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), { 'Mcp-Session-Id': 'not-a-session' }),
      404,
      -32001,
    ],
    ['text/plain', post(INITIALIZE, { 'Content-Type': 'text/plain' }), 415, -32000],
    [
      'PUT',
      rawRequest(served.url, { method: 'PUT', headers: { ...JSON_HEADERS, ...auth }, body: INITIALIZE }),
      405,
      -32000,
    ],
    ['PATCH', rawRequest(served.url, { method: 'PATCH', headers: auth }), 405, -32000],
    [
      'GET without a session',
      rawRequest(served.url, { method: 'GET', headers: { ...auth, Accept: 'text/event-stream' } }),
      400,
      -32000,
    ],
    [
      'DELETE of an unknown session',
      rawRequest(served.url, { method: 'DELETE', headers: { ...auth, 'Mcp-Session-Id': 'gone' } }),
      404,
      -32001,
    ],
    ['another path', rawRequest(served.url, { path: '/admin', method: 'GET', headers: auth }), 404, -32000],
    ['5 MB body', post(Buffer.alloc(5 * 1024 * 1024, 0x20)), 413, -32600],
  ];
  for (const [what, answer, status, code] of cases) {
    const { status: got, body } = await answer;
    expect({ what, status: got }).toEqual({ what, status });
    expect({ what, code: rpcError(body).code }).toEqual({ what, code });
    expect(body).not.toMatch(/at .*\.js:\d+|Error:/);
  }
  await stillServes(served);
  expect(served.child.exitCode).toBeNull();
  expect(await served.stop()).toBe(0);
});

test('DELETE ends the session: its id is unknown afterwards, other sessions carry on', async () => {
  const home = await makeHubHome();
  const served = await startServe(home);
  const a = await connectHttp(served.url, served.token());
  const b = await connectHttp(served.url, served.token());
  const id = a.transport.sessionId!;
  await a.transport.terminateSession();
  const after = await rawRequest(served.url, {
    headers: { ...JSON_HEADERS, Authorization: `Bearer ${served.token()}`, 'Mcp-Session-Id': id },
    body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
  });
  expect(after.status).toBe(404);
  expect((await b.client.listTools()).tools.length).toBeGreaterThan(0);
  // The hub session behind it was closed, not just forgotten.
  await until(() =>
    expect(readFileSync(join(home, 'logs', 'hub.log'), 'utf8')).toMatch(new RegExp(`"session":"${id}","why":"DELETE"`)),
  );
  expect(await served.stop()).toBe(0);
});

test('--rotate-token makes a new 0600 token: a running server refuses the old one at once and takes the new one', async () => {
  const home = await makeHubHome();
  const served = await startServe(home);
  const old = served.token();
  await connectHttp(served.url, old);

  // A second hub serve does not take over the first (a person started it): it rotates and exits.
  const rotating = await cli(home, 'serve', '--port', '0', '--rotate-token');
  expect(rotating.stdout).toContain('new: clients with the old one get 401');
  expect(rotating.code).toBe(0);
  const second = await cli(home, 'serve', '--port', '0');
  expect(second.stderr).toContain(`it already runs for this HUB_HOME (pid ${served.child.pid})`);
  expect(second.code).toBe(1);
  const fresh = served.token();
  expect(fresh).not.toBe(old);
  expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(statSync(join(home, 'http-token')).mode & 0o777).toBe(0o600);

  const refused = await rawRequest(served.url, {
    headers: { ...JSON_HEADERS, Authorization: `Bearer ${old}` },
    body: INITIALIZE,
  });
  expect(refused.status).toBe(401);
  await connectHttp(served.url, fresh);
  expect(await served.stop()).toBe(0);
});

test('a token file others can read is narrowed to 0600 and said; a damaged one is refused with the fix', async () => {
  const home = await makeHubHome();
  writeFileSync(join(home, 'http-token'), `${'x'.repeat(43)}\n`, { mode: 0o644 });
  const served = await startServe(home);
  expect(statSync(join(home, 'http-token')).mode & 0o777).toBe(0o600);
  expect(served.output()).toMatch(/readable by others/);
  await connectHttp(served.url, 'x'.repeat(43));
  expect(await served.stop()).toBe(0);

  writeFileSync(join(home, 'http-token'), 'short\n', { mode: 0o600 });
  await expect(startServe(home)).rejects.toThrow(/does not hold a hub token.*--rotate-token/s);
});

test('a port already taken: exit 1 with the port and the fix, nothing left running', async () => {
  const home = await makeHubHome();
  const blocker = createServer();
  await new Promise<void>(resolve => blocker.listen(0, '127.0.0.1', () => resolve()));
  const taken = (blocker.address() as { port: number }).port;
  try {
    const child = spawn(process.execPath, [SERVER_JS, 'serve', '--port', String(taken)], {
      env: { ...process.env, HUB_HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', chunk => (stderr += chunk));
    const code = await new Promise<number | null>(resolve => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain(`Port ${taken} on 127.0.0.1 is already in use`);
    expect(stderr).toContain('--port');
    expect(stderr).not.toMatch(/at .*\.js:\d+/);
  } finally {
    blocker.close();
  }
});

test('--host 0.0.0.0 is said and logged, and still needs the token; Host may name the machine’s own address, not another', async () => {
  const home = await makeHubHome();
  const served = await startServe(home, '--host', '0.0.0.0');
  expect(served.output()).toMatch(
    /Reachable from the network \(0\.0\.0\.0\): anyone who can reach it still needs the token/,
  );
  const local = served.url.replace('0.0.0.0', '127.0.0.1');
  const none = await rawRequest(local, { headers: JSON_HEADERS, body: INITIALIZE });
  expect(none.status).toBe(401);
  const own = Object.values(networkInterfaces())
    .flat()
    .find(address => address && address.family === 'IPv4' && !address.internal)?.address;
  const auth = { Authorization: `Bearer ${served.token()}` };
  if (own !== undefined) {
    const byAddress = await rawRequest(local, {
      headers: { ...JSON_HEADERS, ...auth, Host: `${own}:${served.port}` },
      body: INITIALIZE,
    });
    expect(byAddress.status).toBe(200);
  }
  const foreign = await rawRequest(local, {
    headers: { ...JSON_HEADERS, ...auth, Host: `203.0.113.9:${served.port}` },
    body: INITIALIZE,
  });
  expect(foreign.status).toBe(403);
  await connectHttp(local, served.token());
  expect(readFileSync(join(home, 'logs', 'hub.log'), 'utf8')).toMatch(/non-loopback bind/);
  expect(await served.stop()).toBe(0);
});
