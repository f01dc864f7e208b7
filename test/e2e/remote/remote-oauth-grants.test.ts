// How hub identifies itself to a remote server's authorization server, and the grants it obtains
// without a browser: a Client ID Metadata Document (OAUTH_CLIENT_METADATA_URL) before dynamic
// registration; client_credentials with a secret or a private key JWT (SEP-1046); and the
// jwt-bearer grant with an ID-JAG the person's identity provider issues (SEP-990). Real fixtures on
// 127.0.0.1 (test/fixtures/remote-grant-server.mjs), driven through the built hub.
import { describe, expect, test, vi } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, textOf } from '../../helpers/hub.js';
import { allLogs, startRemoteFixture, type RemoteFixture } from '../../helpers/remote-fixture.js';

interface Stats {
  registrations: number;
  authorizeClientIds: string[];
  grants: string[];
  exchanges: number;
  failures: string[];
}

const CLIENT = { id: 'grant-client', secret: 'grant-secret-5c1e' };
const CIMD = 'https://hub.example.org/oauth/client.json';
const port = (server: RemoteFixture, name: string) => new RegExp(`${name} (\\d+)`).exec(server.output())?.[1];
const stats = async (server: RemoteFixture): Promise<Stats> =>
  (await fetch(`http://127.0.0.1:${port(server, 'AS')}/admin/stats`)).json() as Promise<Stats>;
const privateKey = (server: RemoteFixture) =>
  Buffer.from(/KEY (\S+)/.exec(server.output())?.[1] ?? '', 'base64').toString('utf8');

describe('client id metadata documents and configured grants', () => {
  test('with OAUTH_CLIENT_METADATA_URL hub uses it as its client id instead of registering; without, it registers', async () => {
    const home = await makeHubHome();
    const server = await startRemoteFixture('remote-grant-server.mjs');
    const hub = await spawnHub(home);
    try {
      const bad = await hub.call('registry.install', {
        url: server.url,
        name: 'plain',
        env: { OAUTH_CLIENT_METADATA_URL: 'http://hub.example.org/client.json' },
      });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/OAUTH_CLIENT_METADATA_URL .*https URL/);

      const installed = await hub.call('registry.install', {
        url: server.url,
        name: 'cimd',
        env: { OAUTH_CLIENT_METADATA_URL: CIMD },
      });
      const { authorizationUrl } = installed.structuredContent as { authorizationUrl: string };
      expect(new URL(authorizationUrl).searchParams.get('client_id')).toBe(CIMD);
      const approve = await fetch(authorizationUrl, { redirect: 'manual' });
      expect((await fetch(approve.headers.get('location') ?? '')).status).toBe(200);
      await vi.waitFor(async () => expect(textOf(await hub.call('cimd_echo', { text: 'c' }))).toBe('granted echo: c'), {
        timeout: 15_000,
      });
      expect((await stats(server)).registrations).toBe(0);

      const registered = await hub.call('registry.install', { url: server.url, name: 'dcr' });
      const other = (registered.structuredContent as { authorizationUrl: string }).authorizationUrl;
      expect(new URL(other).searchParams.get('client_id')).toMatch(/^registered-/);
      expect((await stats(server)).registrations).toBe(1);
    } finally {
      await hub.close();
    }
  });

  test('client_credentials with a secret, then with a private key JWT: tools at install, no sign-in link', async () => {
    const home = await makeHubHome();
    const server = await startRemoteFixture('remote-grant-server.mjs');
    const hub = await spawnHub(home);
    try {
      const refused = await hub.call('registry.install', {
        url: server.url,
        name: 'bad',
        env: { OAUTH_GRANT: 'password', OAUTH_CLIENT_ID: CLIENT.id },
      });
      expect(textOf(refused)).toMatch(/OAUTH_GRANT is "password": use client_credentials/);

      const basic = await hub.call('registry.install', {
        url: server.url,
        name: 'basic',
        env: { OAUTH_GRANT: 'client_credentials', OAUTH_CLIENT_ID: CLIENT.id, OAUTH_CLIENT_SECRET: CLIENT.secret },
      });
      expect(basic.isError, textOf(basic)).toBeFalsy();
      expect(basic.structuredContent).not.toHaveProperty('authorizationUrl');
      expect(textOf(await hub.call('basic_echo', { text: 'b' }))).toBe('granted echo: b');

      const jwt = await hub.call('registry.install', {
        url: server.url,
        name: 'jwt',
        env: {
          OAUTH_GRANT: 'client_credentials',
          OAUTH_CLIENT_ID: CLIENT.id,
          OAUTH_PRIVATE_KEY: privateKey(server),
          OAUTH_SIGNING_ALGORITHM: 'ES256',
        },
      });
      expect(jwt.isError, textOf(jwt)).toBeFalsy();
      expect(textOf(await hub.call('jwt_echo', { text: 'j' }))).toBe('granted echo: j');
      const seen = await stats(server);
      expect(seen.grants.filter(grant => grant === 'client_credentials')).toHaveLength(2);
      expect(seen.authorizeClientIds).toEqual([]);
      expect(seen.failures).toEqual([]);
      expect(await allLogs(home)).not.toContain(CLIENT.secret);
    } finally {
      await hub.close();
    }
  });

  test("jwt_bearer: the identity provider's ID-JAG for the person's ID token is the grant (enterprise-managed authorization)", async () => {
    const home = await makeHubHome();
    const server = await startRemoteFixture('remote-grant-server.mjs');
    const hub = await spawnHub(home);
    try {
      const installed = await hub.call('registry.install', {
        url: server.url,
        name: 'xaa',
        env: {
          OAUTH_GRANT: 'jwt_bearer',
          OAUTH_CLIENT_ID: CLIENT.id,
          OAUTH_CLIENT_SECRET: CLIENT.secret,
          OAUTH_IDP_TOKEN_ENDPOINT: `http://127.0.0.1:${port(server, 'IDP')}/token`,
          OAUTH_IDP_CLIENT_ID: 'hub-at-idp',
          OAUTH_IDP_ID_TOKEN: 'id-token-of-alice',
        },
      });
      expect(installed.isError, textOf(installed)).toBeFalsy();
      expect(textOf(await hub.call('xaa_echo', { text: 'x' }))).toBe('granted echo: x');
      const seen = await stats(server);
      expect(seen.exchanges).toBe(1);
      expect(seen.grants).toContain('urn:ietf:params:oauth:grant-type:jwt-bearer');
      expect(seen.failures).toEqual([]);
    } finally {
      await hub.close();
    }
  });
});
