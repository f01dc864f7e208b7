// OAuth for remote servers through the built hub, against a real authorization server and a
// protected MCP server on 127.0.0.1 (test/fixtures/remote-oauth-server.mjs, the SDK's server-side
// auth): discovery from the 401, dynamic client registration, PKCE S256 with the resource
// parameter, the sign-in followed by the test as a browser would, tools after list_changed,
// refresh before expiry, re-authorization after revocation, hub login and hub logout.
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test, vi } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { SERVER_JS, spawnHub, textOf } from '../../helpers/hub.js';
import { startRemoteFixture, type RemoteFixture } from '../../helpers/remote-fixture.js';

interface Stats {
  registrations: number;
  authorizations: number;
  codeExchanges: number;
  refreshes: number;
  unauthorized: number;
  challengeMethods: string[];
  resources: (string | null)[];
  redirectUris: string[];
}

const asOf = (server: RemoteFixture) => `http://127.0.0.1:${/AS (\d+)/.exec(server.output())?.[1]}`;
const stats = async (server: RemoteFixture): Promise<Stats> =>
  (await fetch(`${asOf(server)}/admin/stats`)).json() as Promise<Stats>;

/** What a browser does: open the authorization URL, follow the redirect to hub's loopback listener. */
async function signInAsBrowser(authorizationUrl: string): Promise<string> {
  const approve = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(approve.status).toBe(302);
  const back = approve.headers.get('location') ?? '';
  expect(back).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?code=/);
  const landing = await fetch(back);
  const page = await landing.text();
  expect(landing.status, page).toBe(200);
  return page;
}

const urlIn = (text: string) => /open (http:\/\/\S+) in a browser/.exec(text)?.[1] ?? '';

describe('OAuth sign-in of a remote server', () => {
  test('install, sign in through the browser, tools with list_changed, refresh before expiry, re-authorization after revocation', async () => {
    const home = await makeHubHome();
    const server = await startRemoteFixture('remote-oauth-server.mjs', ['--token-ttl', '3']);
    const hub = await spawnHub(home);
    try {
      const changed = vi.fn();
      hub.client.setNotificationHandler(ToolListChangedNotificationSchema, changed);
      const installed = await hub.call('registry.install', { url: server.url, name: 'secure' });
      expect(installed.isError, textOf(installed)).toBeFalsy();
      const result = installed.structuredContent as { state: string; authorizationUrl: string; next: string };
      expect(result.state).toBe('stopped');
      const authUrl = new URL(result.authorizationUrl);
      expect(authUrl.origin).toBe(asOf(server));
      expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authUrl.searchParams.get('resource')).toBe(server.url);
      expect(result.next).toContain('needs you to sign in');

      // Until the person signs in, a call answers with the same URL (no new authorization each time).
      const viaCall = await hub.call('registry.call', { server: 'secure', tool: 'echo', arguments: { text: 'x' } });
      expect(textOf(viaCall)).toContain(result.authorizationUrl);

      expect(await signInAsBrowser(result.authorizationUrl)).toContain('Signed in to secure');
      await vi.waitFor(
        async () => {
          const { tools } = await hub.client.listTools();
          expect(tools.map(tool => tool.name)).toContain('secure_echo');
        },
        { timeout: 15_000 },
      );
      expect(changed).toHaveBeenCalled();
      expect(textOf(await hub.call('secure_echo', { text: 'hi' }))).toBe('secure echo: hi');
      let seen = await stats(server);
      expect(seen).toMatchObject({ registrations: 1, authorizations: 1, codeExchanges: 1 });
      expect(seen.challengeMethods).toEqual(['S256']);
      expect(seen.resources).toEqual([server.url]);

      // Tokens are private files under HUB_HOME.
      const file = join(home, 'auth', 'secure.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(join(home, 'auth')).mode & 0o777).toBe(0o700);
      expect(JSON.parse(await readFile(file, 'utf8')).tokens.refresh_token).toEqual(expect.any(String));

      // The 3 s token is refreshed before it expires: no 401 on the way.
      const before = seen.unauthorized;
      await new Promise(resolve => setTimeout(resolve, 2000));
      expect(textOf(await hub.call('secure_echo', { text: 'later' }))).toBe('secure echo: later');
      seen = await stats(server);
      expect(seen.refreshes).toBeGreaterThanOrEqual(1);
      expect(seen.unauthorized).toBe(before);

      // Every token revoked: refresh fails, so hub asks for a new sign-in, and works after it.
      await fetch(`${asOf(server)}/admin/revoke-all`, { method: 'POST' });
      const refused = await hub.call('secure_echo', { text: 'revoked' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^AUTH_REQUIRED: Server "secure" needs you to sign in/);
      await signInAsBrowser(urlIn(textOf(refused)));
      expect(textOf(await hub.call('secure_echo', { text: 'back' }))).toBe('secure echo: back');
      expect((await stats(server)).authorizations).toBe(2);
    } finally {
      await hub.close();
    }
  });

  test('hub-mcp logout forgets the sign-in; hub-mcp login signs in from a terminal and a waiting hub starts the server; a revoked sign-in is asked for again by URL elicitation', async () => {
    const home = await makeHubHome();
    const server = await startRemoteFixture('remote-oauth-server.mjs');
    // A client that takes URL-mode elicitation is asked to open the sign-in URL.
    const hub = await spawnHub(home, { capabilities: { elicitation: { url: {} } } });
    const asked: { mode?: string; url?: string }[] = [];
    hub.client.setRequestHandler(ElicitRequestSchema, request => {
      asked.push(request.params as { mode?: string; url?: string });
      return { action: 'accept' };
    });
    try {
      const installed = await hub.call('registry.install', { url: server.url, name: 'secure' });
      expect(installed.structuredContent).toMatchObject({ state: 'stopped' });
      const { authorizationUrl } = installed.structuredContent as { authorizationUrl: string };
      await vi.waitFor(() => expect(asked).toEqual([expect.objectContaining({ mode: 'url', url: authorizationUrl })]), {
        timeout: 10_000,
        interval: 50,
      });
      const changed = vi.fn();
      hub.client.setNotificationHandler(ToolListChangedNotificationSchema, changed);

      // hub login in another process: it prints its own URL; the waiting hub sees the tokens.
      const cli = spawn(process.execPath, [SERVER_JS, 'login', 'secure'], {
        env: { ...process.env, HUB_HOME: home },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      cli.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      cli.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      const exited = new Promise<number | null>(resolve => cli.once('exit', resolve));
      await vi.waitFor(() => expect(out).toMatch(/\n {2}http:\/\/\S+\n/), { timeout: 15_000 });
      await signInAsBrowser(/\n {2}(http:\/\/\S+)\n/.exec(out)![1]!);
      expect(await exited, out).toBe(0);
      expect(out).toContain('Signed in to secure.');
      await vi.waitFor(
        async () => {
          const { tools } = await hub.client.listTools();
          expect(tools.map(tool => tool.name)).toContain('secure_echo');
        },
        { timeout: 15_000 },
      );
      expect(textOf(await hub.call('secure_echo', { text: 'cli' }))).toBe('secure echo: cli');

      // Mid-session the tokens are revoked: the call that meets it answers with the new URL, and
      // the client is asked to open it, once (a second call while it waits asks nothing more).
      await fetch(`${asOf(server)}/admin/revoke-all`, { method: 'POST' });
      const refused = await hub.call('secure_echo', { text: 'revoked' });
      expect(textOf(refused)).toMatch(/^AUTH_REQUIRED: Server "secure" needs you to sign in/);
      const again = urlIn(textOf(refused));
      await vi.waitFor(() => expect(asked.at(-1)).toMatchObject({ mode: 'url', url: again }), {
        timeout: 10_000,
        interval: 50,
      });
      expect(asked).toHaveLength(2);
      expect(urlIn(textOf(await hub.call('secure_echo', { text: 'still waiting' })))).toBe(again);
      // An ask is sent before the call's answer, on the same stream: and a ping round trip after.
      await hub.client.ping();
      expect(asked).toHaveLength(2);
      await signInAsBrowser(again);
      expect(textOf(await hub.call('secure_echo', { text: 'back' }))).toBe('secure echo: back');
    } finally {
      await hub.close();
    }
    const logout = spawn(process.execPath, [SERVER_JS, 'logout', 'secure'], {
      env: { ...process.env, HUB_HOME: home },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    logout.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    expect(await new Promise(resolve => logout.once('exit', resolve))).toBe(0);
    expect(text).toContain('Signed out of secure');
    expect(() => statSync(join(home, 'auth', 'secure.json'))).toThrow();
  });
});
