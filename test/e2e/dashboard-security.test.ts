// The dashboard's door: one-time login → session cookie; nothing without the cookie; Host
// checked on every request and Origin on every state-changing one; no secret in any body.
import { createServer } from 'node:net';
import { describe, expect, test } from 'vitest';
import { cli } from '../helpers/cli.js';
import { processesMentioning } from '../helpers/install.js';
import { logIn, rawRequest, startDashboard } from '../helpers/dashboard.js';
import { makeHubHome } from '../helpers/home.js';
import { fixture, spawnHub } from '../helpers/hub.js';

const SECRET = 'sk-dashboard-secret-4242';

describe('hub ui security', () => {
  test('one-time login, cookie, Host and Origin checks', async () => {
    const home = await makeHubHome();
    const ui = await startDashboard(home);
    const host = new URL(ui.base).host;

    // Nothing without the cookie: the page, the API, the event stream.
    for (const path of ['/', '/app.js', '/api/state', '/api/events'])
      expect((await rawRequest(`${ui.base}${path}`)).status, path).toBe(401);

    const login = await rawRequest(ui.login);
    expect(login.status).toBe(303);
    const setCookie = [login.headers['set-cookie'] ?? []].flat()[0] ?? '';
    expect(setCookie).toMatch(/^hub_session=[\w-]{40,}; HttpOnly; SameSite=Strict; Path=\/$/);
    const cookie = setCookie.split(';')[0]!;

    // The login URL is dead once used.
    const replay = await rawRequest(ui.login);
    expect(replay.status).toBe(401);
    expect(replay.headers['set-cookie']).toBeUndefined();
    expect(replay.body).toMatch(/used already or has expired/);
    expect(await logIn(`${ui.base}/login?token=guessed`)).toBeUndefined();

    const state = await rawRequest(`${ui.base}/api/state`, { headers: { cookie } });
    expect(state.status).toBe(200);
    expect(JSON.parse(state.body)).toMatchObject({ processes: [], servers: [] });
    expect((await rawRequest(`${ui.base}/api/state`, { headers: { cookie: 'hub_session=forged' } })).status).toBe(401);

    // DNS rebinding: another Host name for this port is refused even with the cookie.
    const rebound = await rawRequest(`${ui.base}/api/state`, {
      headers: { cookie, host: `evil.example:${new URL(ui.base).port}` },
    });
    expect(rebound.status).toBe(403);

    // A state-changing request needs this dashboard's Origin: none or a foreign one is refused,
    // and nothing is started.
    const start = JSON.stringify({ command: 'sleep 30', name: 'sneaky' });
    const json = { 'content-type': 'application/json', cookie };
    for (const origin of [undefined, 'http://evil.example', `http://${host}.evil.example`, 'null']) {
      const refused = await rawRequest(`${ui.base}/api/processes`, {
        method: 'POST',
        headers: { ...json, ...(origin !== undefined && { origin }) },
        body: start,
      });
      expect(refused.status, String(origin)).toBe(403);
      expect(refused.body).toMatch(/Origin/);
    }
    // Without the cookie, even the right Origin is refused.
    expect(
      (
        await rawRequest(`${ui.base}/api/processes`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: ui.base },
          body: start,
        })
      ).status,
    ).toBe(401);
    expect(JSON.parse((await rawRequest(`${ui.base}/api/state`, { headers: { cookie } })).body).processes).toEqual([]);

    // Bad input names the field.
    const bad = await rawRequest(`${ui.base}/api/processes`, {
      method: 'POST',
      headers: { ...json, origin: ui.base },
      body: JSON.stringify({ command: '' }),
    });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error).toMatch(/Field "command"/);
    const notJson = await rawRequest(`${ui.base}/api/processes`, {
      method: 'POST',
      headers: { ...json, origin: ui.base },
      body: '{',
    });
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body).error).toMatch(/not JSON/);
  });

  test('secrets never leave: env values of processes and servers are masked', async () => {
    const home = await makeHubHome();
    const hub = await spawnHub(home);
    try {
      // A real MCP server whose env holds the secret, and a command line that repeats it.
      const installed = await hub.call('registry.install', {
        command: process.execPath,
        args: [fixture('echo-server.mjs'), `--token=${SECRET}`],
        name: 'secretive',
        env: { API_KEY: SECRET },
        start: false,
      });
      expect(installed.isError).toBeFalsy();
      await hub.call('start_process', {
        command: 'sleep',
        args: ['30'],
        name: 'withsecret',
        env: { TOKEN: SECRET },
      });
      // A process that prints the server's key: the known secret is masked in its log too.
      await hub.call('start_process', { command: 'echo', args: [`key is ${SECRET}`], name: 'leaky' });
      const ui = await startDashboard(home);
      const cookie = (await logIn(ui.login))!;
      const bodies = await Promise.all(
        ['/api/state', '/api/servers/secretive', '/api/processes/withsecret/logs', '/api/processes/leaky/logs'].map(
          async path => {
            const answer = await rawRequest(`${ui.base}${path}`, { headers: { cookie } });
            expect(answer.status, path).toBe(200);
            return answer.body;
          },
        ),
      );
      expect(bodies[0]).toContain('withsecret');
      expect(bodies[0]).toContain('secretive');
      for (const body of bodies) expect(body).not.toContain(SECRET);
      expect(JSON.parse(bodies[3]!).lines).toEqual(['key is ***']);
      // Reading its tools started the server in hub ui; stopping hub ui stops it.
      expect(processesMentioning(`--token=${SECRET}`)).toHaveLength(1);
      await ui.stop();
      expect(processesMentioning(`--token=${SECRET}`)).toEqual([]);
    } finally {
      await hub.close();
    }
  });
});

describe('hub ui arguments', () => {
  test('a busy port or a non-loopback host is refused with the flag named', async () => {
    const home = await makeHubHome();
    const busy = createServer();
    await new Promise<void>(resolve => busy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (busy.address() as { port: number }).port;
      const taken = await cli(home, 'ui', '--no-open', '--port', String(port));
      expect(taken.code).toBe(2);
      expect(taken.stderr).toMatch(new RegExp(`--port ${port} is in use`));
      const open = await cli(home, 'ui', '--no-open', '--host', '0.0.0.0');
      expect(open.code).toBe(2);
      expect(open.stderr).toMatch(/--host must be a loopback address/);
      const bad = await cli(home, 'ui', '--no-open', '--port', 'x');
      expect(bad.stderr).toMatch(/--port must be a whole number/);
    } finally {
      busy.close();
    }
  });
});
