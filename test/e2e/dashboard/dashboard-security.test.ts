// The dashboard's door: one-time login → a session key the page holds and sends in a header (no
// cookie, which every port of 127.0.0.1 would receive); no data without the key; Host checked on
// every request and Origin on every state-changing one; no secret in any body.
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { chromium } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { cli } from '../../helpers/cli.js';
import { processesMentioning } from '../../helpers/install.js';
import { logIn, rawRequest, startDashboard, statusOf } from '../../helpers/dashboard.js';
import { makeHubHome } from '../../helpers/home.js';
import { fixture, spawnHub } from '../../helpers/hub.js';

const SECRET = 'sk-dashboard-secret-4242';

const isNode = (pid: number): boolean => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] === process.execPath;
  } catch {
    return false;
  }
};
const CHROMIUM = process.env.HUB_CHROMIUM ?? '/usr/bin/chromium';

describe('hub-mcp ui security', () => {
  test('one-time login, session key, Host and Origin checks', async () => {
    const home = await makeHubHome();
    const ui = await startDashboard(home);
    const host = new URL(ui.base).host;

    // The page's code is public (it ships in the package); no data without the session key.
    expect((await rawRequest(`${ui.base}/`)).status).toBe(200);
    for (const path of ['/api/state', '/api/events'])
      expect((await rawRequest(`${ui.base}${path}`)).status, path).toBe(401);

    // Opening the login URL serves the page and spends nothing (a link preview cannot use it up);
    // no cookie is ever set.
    const opened = await rawRequest(ui.login);
    expect(opened.status).toBe(200);
    expect(opened.body).toContain('/app.js');
    expect(opened.headers['set-cookie']).toBeUndefined();
    // Only this page's Origin may trade the token for a session key.
    const token = JSON.stringify({ token: new URL(ui.login).searchParams.get('token') });
    const foreign = await rawRequest(`${ui.base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:1' },
      body: token,
    });
    expect(foreign.status).toBe(403);
    const auth = (await logIn(ui.login))!;
    expect(auth.authorization).toMatch(/^Bearer [\w-]{40,}$/);

    // The login is dead once used.
    const replay = await rawRequest(`${ui.base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ui.base },
      body: token,
    });
    expect(replay.status).toBe(401);
    expect(JSON.parse(replay.body).error).toMatch(/used already or has expired/);
    expect(await logIn(`${ui.base}/login?token=guessed`)).toBeUndefined();

    const state = await rawRequest(`${ui.base}/api/state`, { headers: auth });
    expect(state.status).toBe(200);
    expect(JSON.parse(state.body)).toMatchObject({ processes: [], servers: [] });
    expect((await rawRequest(`${ui.base}/api/state`, { headers: { authorization: 'Bearer forged' } })).status).toBe(
      401,
    );

    // DNS rebinding: another Host name for this port is refused even with the key.
    const rebound = await rawRequest(`${ui.base}/api/state`, {
      headers: { ...auth, host: `evil.example:${new URL(ui.base).port}` },
    });
    expect(rebound.status).toBe(403);

    // A state-changing request needs this dashboard's Origin: none or a foreign one is refused,
    // and nothing is started.
    const start = JSON.stringify({ command: 'sleep 30', name: 'sneaky' });
    const json = { 'content-type': 'application/json', ...auth };
    for (const origin of [undefined, 'http://evil.example', `http://${host}.evil.example`, 'null']) {
      const refused = await rawRequest(`${ui.base}/api/processes`, {
        method: 'POST',
        headers: { ...json, ...(origin !== undefined && { origin }) },
        body: start,
      });
      expect(refused.status, String(origin)).toBe(403);
      expect(refused.body).toMatch(/Origin/);
    }
    // Without the key, even the right Origin is refused.
    expect(
      (
        await rawRequest(`${ui.base}/api/processes`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: ui.base },
          body: start,
        })
      ).status,
    ).toBe(401);
    expect(JSON.parse((await rawRequest(`${ui.base}/api/state`, { headers: auth })).body).processes).toEqual([]);

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

  // Browsers send 127.0.0.1's cookies to every port on it: another local user's page on another
  // port got the session cookie and replayed it with a forged Origin (POST /api/processes ran `id`).
  test(
    'a page on another port of 127.0.0.1 gets nothing it can replay; the real page keeps working',
    {
      timeout: 60_000,
    },
    async () => {
      const home = await makeHubHome();
      const ui = await startDashboard(home);
      const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
      // The other user's server: records what the person's browser sends it.
      const seen: (string | undefined)[] = [];
      const thief = createHttpServer((request, response) => {
        seen.push(request.headers.cookie);
        response.end('<p>nothing to see</p>');
      });
      await new Promise<void>(resolve => thief.listen(0, '127.0.0.1', resolve));
      try {
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(ui.login);
        await page.getByText('No processes').waitFor({ timeout: 15_000 });
        const other = await context.newPage();
        await other.goto(`http://127.0.0.1:${(thief.address() as { port: number }).port}/`);
        expect(seen.length).toBeGreaterThan(0);
        // Whatever that page received, and every cookie the browser holds for the dashboard.
        const jar = (await context.cookies(ui.base)).map(cookie => `${cookie.name}=${cookie.value}`).join('; ');
        for (const cookie of [...new Set([...seen, jar])].filter(Boolean) as string[]) {
          const forged = { cookie, origin: ui.base, host: new URL(ui.base).host };
          expect(await statusOf(`${ui.base}/api/state`, forged)).toBe(401);
          expect(await statusOf(`${ui.base}/api/events`, forged)).toBe(401);
          const ran = await rawRequest(`${ui.base}/api/processes`, {
            method: 'POST',
            headers: { ...forged, 'content-type': 'application/json' },
            body: JSON.stringify({ command: 'id', name: 'stolen' }),
          });
          expect(ran.status).toBe(401);
        }
        // The page itself still works: its key (in this tab only) reads the state, nothing ran.
        const state = (await page.evaluate(`fetch('/api/state', {
        headers: { authorization: 'Bearer ' + sessionStorage.getItem('hub-session') },
      }).then(response => response.json())`)) as { processes: unknown[] };
        expect(state.processes).toEqual([]);
        await page.getByRole('tab', { name: /MCP servers/ }).click();
        await page.getByText('Find and install a server').waitFor({ timeout: 10_000 });
      } finally {
        thief.close();
        await browser.close();
      }
    },
  );

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
      const auth = (await logIn(ui.login))!;
      const bodies = await Promise.all(
        ['/api/state', '/api/servers/secretive', '/api/processes/withsecret/logs', '/api/processes/leaky/logs'].map(
          async path => {
            const answer = await rawRequest(`${ui.base}${path}`, { headers: auth });
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
      // One server process (a sandboxed one also has its bwrap launchers mentioning it).
      expect(processesMentioning(`--token=${SECRET}`).filter(isNode)).toHaveLength(1);
      await ui.stop();
      expect(processesMentioning(`--token=${SECRET}`)).toEqual([]);
    } finally {
      await hub.close();
    }
  });
});

describe('hub-mcp ui arguments', () => {
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
