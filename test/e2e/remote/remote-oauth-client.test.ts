// OAuth for remote servers, the parts around the sign-in: a client registered beforehand for an
// authorization server without dynamic client registration (OAUTH_CLIENT_ID / OAUTH_CLIENT_SECRET
// in the install's env), hub logout revoking at the server (RFC 7009), and two hubs sharing one
// HUB_HOME refreshing a single-use refresh token one at a time. Real fixtures on 127.0.0.1
// (test/fixtures/remote-oauth-server.mjs), driven through the built hub.
import { spawnSync } from 'node:child_process';
import { describe, expect, test, vi } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { SERVER_JS, spawnHub, textOf, type HubSession } from '../../helpers/hub.js';
import { allLogs, startRemoteFixture, type RemoteFixture } from '../../helpers/remote-fixture.js';

interface Stats {
  registrations: number;
  authorizations: number;
  refreshes: number;
  refreshReused: number;
  revocations: { client: string; hint: string | null }[];
}

const asOf = (server: RemoteFixture) => `http://127.0.0.1:${/AS (\d+)/.exec(server.output())?.[1]}`;
const stats = async (server: RemoteFixture): Promise<Stats> =>
  (await fetch(`${asOf(server)}/admin/stats`)).json() as Promise<Stats>;

async function signInAsBrowser(authorizationUrl: string): Promise<void> {
  const approve = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(approve.status, await approve.text()).toBe(302);
  const landing = await fetch(approve.headers.get('location') ?? '');
  expect(landing.status, await landing.text()).toBe(200);
}

async function signedIn(hub: HubSession, server: RemoteFixture): Promise<void> {
  const installed = await hub.call('registry.install', { url: server.url, name: 'secure' });
  const { authorizationUrl } = installed.structuredContent as { authorizationUrl: string };
  await signInAsBrowser(authorizationUrl);
  await vi.waitFor(async () => expect(textOf(await hub.call('secure_echo', { text: 'in' }))).toBe('secure echo: in'), {
    timeout: 15_000,
  });
}

const cli = (home: string, ...args: string[]) =>
  spawnSync(process.execPath, [SERVER_JS, ...args], { env: { ...process.env, HUB_HOME: home }, encoding: 'utf8' });

describe('OAuth client configuration, revocation and shared refresh', () => {
  test('an authorization server without registration: the error names OAUTH_CLIENT_ID; with it (and a secret) hub signs in; logout revokes', async () => {
    const home = await makeHubHome();
    const secret = 'hub-client-secret-9f3a';
    const server = await startRemoteFixture('remote-oauth-server.mjs', ['--client', `hub-client:${secret}`]);
    const hub = await spawnHub(home);
    try {
      const refused = await hub.call('registry.install', { url: server.url, name: 'secure' });
      expect(JSON.stringify(refused)).toContain('OAUTH_CLIENT_ID');
      expect(JSON.stringify(refused)).toMatch(/does not let hub register itself/);

      const installed = await hub.call('registry.install', {
        url: server.url,
        name: 'secure',
        env: { OAUTH_CLIENT_ID: 'hub-client', OAUTH_CLIENT_SECRET: secret },
      });
      const { authorizationUrl } = installed.structuredContent as { authorizationUrl: string };
      expect(new URL(authorizationUrl).searchParams.get('client_id')).toBe('hub-client');
      await signInAsBrowser(authorizationUrl);
      await vi.waitFor(
        async () => expect(textOf(await hub.call('secure_echo', { text: 'hi' }))).toBe('secure echo: hi'),
        { timeout: 15_000 },
      );
      expect((await stats(server)).registrations).toBe(0);
      const seen = [
        JSON.stringify(refused),
        JSON.stringify(installed),
        JSON.stringify(await hub.call('registry.list', {})),
        await allLogs(home),
      ].join('\n');
      expect(seen).not.toContain(secret);
    } finally {
      await hub.close();
    }
    const out = cli(home, 'logout', 'secure');
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/its tokens were revoked at http:\/\/127\.0\.0\.1:\d+\/revoke/);
    expect(out.stdout + out.stderr).not.toContain(secret);
    expect((await stats(server)).revocations).toEqual([
      { client: 'hub-client', hint: 'refresh_token' },
      { client: 'hub-client', hint: 'access_token' },
    ]);
  });

  test('logout deletes the tokens even when the authorization server cannot be reached, and says so', async () => {
    const home = await makeHubHome();
    const server = await startRemoteFixture('remote-oauth-server.mjs');
    const hub = await spawnHub(home);
    try {
      await signedIn(hub, server);
    } finally {
      await hub.close();
    }
    await server.stop();
    const out = cli(home, 'logout', 'secure');
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/revocation at \S+ failed .*the tokens were deleted here anyway/);
    expect(out.stdout).toContain('Signed out of secure');
  });

  test('two hubs on one HUB_HOME refresh a single-use refresh token once, not twice', async () => {
    const home = await makeHubHome();
    // 4 s tokens, refreshed in their last 2 s; a reused refresh token revokes everything.
    const server = await startRemoteFixture('remote-oauth-server.mjs', ['--token-ttl', '4', '--strict-rotation']);
    const first = await spawnHub(home);
    const second = await spawnHub(home);
    try {
      await signedIn(first, server);
      await vi.waitFor(
        async () => expect(textOf(await second.call('secure_echo', { text: 'b' }))).toBe('secure echo: b'),
        { timeout: 15_000 },
      );
      for (let round = 0; round < 2; round += 1) {
        await new Promise(resolve => setTimeout(resolve, 2300));
        const answers = await Promise.all([
          first.call('secure_echo', { text: 'one' }),
          second.call('secure_echo', { text: 'two' }),
        ]);
        expect(answers.map(textOf)).toEqual(['secure echo: one', 'secure echo: two']);
      }
      const seen = await stats(server);
      expect(seen.refreshReused).toBe(0);
      expect(seen.refreshes).toBeGreaterThanOrEqual(2);
      expect(seen.authorizations).toBe(1);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
