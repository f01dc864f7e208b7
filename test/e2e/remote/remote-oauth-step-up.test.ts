// OAuth for remote servers at any point of a session, not only at connect: a server that takes
// initialize without a token and answers 401 on tools/list, a 403 insufficient_scope on a call
// (step-up to a wider scope), a server no sign-in ever satisfies (hub stops asking), and a sign-in
// the person declined (its link is never handed out again). Real fixtures on 127.0.0.1
// (test/fixtures/remote-oauth-server.mjs), driven through the built hub.
import { describe, expect, test, vi } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, textOf, type HubSession } from '../../helpers/hub.js';
import { startRemoteFixture, type RemoteFixture } from '../../helpers/remote-fixture.js';

interface Stats {
  authorizations: number;
  scopes: string[][];
  insufficient?: number;
}

const asOf = (server: RemoteFixture) => `http://127.0.0.1:${/AS (\d+)/.exec(server.output())?.[1]}`;
const stats = async (server: RemoteFixture): Promise<Stats> =>
  (await fetch(`${asOf(server)}/admin/stats`)).json() as Promise<Stats>;
const linkIn = (text: string): string | undefined => /open (\S+) in a browser/.exec(text)?.[1];

// The person's browser: the fixture's authorization server redirects at once to hub's callback.
async function signInAsBrowser(authorizationUrl: string): Promise<string> {
  const approve = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(approve.status, await approve.text()).toBe(302);
  const landing = await fetch(approve.headers.get('location') ?? '');
  return `${landing.status} ${await landing.text()}`;
}

async function install(hub: HubSession, server: RemoteFixture): Promise<string> {
  const installed = await hub.call('registry.install', { url: server.url, name: 'secure' });
  const url = (installed.structuredContent as { authorizationUrl?: string } | undefined)?.authorizationUrl;
  expect(url, JSON.stringify(installed)).toBeDefined();
  return url ?? '';
}

const status = async (hub: HubSession) => JSON.stringify(await hub.call('registry.list', { server: 'secure' }));

describe('remote sign-in at any point of a session', () => {
  test('a 401 on tools/list after an open initialize is a sign-in; a 403 insufficient_scope on a call is a step-up', async () => {
    const home = await makeHubHome();
    const server = await startRemoteFixture('remote-oauth-server.mjs', [
      '--open-initialize',
      '--call-scope',
      'mcp:write',
    ]);
    const hub = await spawnHub(home);
    try {
      // The old hub answered "did not start as an MCP server … (Unauthorized)" and dropped the record.
      const first = await install(hub, server);
      expect(await signInAsBrowser(first)).toMatch(/^200 .*Signed in/);
      // Listed once signed in; the call needs the wider scope: the answer carries the step-up link.
      const stepUp = await vi.waitFor(
        async () => {
          const answer = textOf(await hub.call('secure_echo', { text: 'up' }));
          const link = linkIn(answer);
          expect(link, answer).toBeDefined();
          return link ?? '';
        },
        { timeout: 15_000 },
      );
      expect(new URL(stepUp).searchParams.get('scope')).toContain('mcp:write');
      expect(await signInAsBrowser(stepUp)).toMatch(/^200 .*Signed in/);
      expect(textOf(await hub.call('secure_echo', { text: 'up' }))).toBe('secure echo: up');
      const seen = await stats(server);
      expect(seen.authorizations).toBe(2);
      expect(seen.scopes[1]).toContain('mcp:write');
    } finally {
      await hub.close();
    }
  });

  test('a server no sign-in satisfies: hub asks twice, then stops and says why', async () => {
    const home = await makeHubHome();
    const server = await startRemoteFixture('remote-oauth-server.mjs', ['--open-initialize', '--never-enough']);
    const hub = await spawnHub(home);
    try {
      expect(await signInAsBrowser(await install(hub, server))).toMatch(/^200 /);
      // Restarted once signed in, refused with 403 on tools/list: a step-up link in its status.
      const second = await vi.waitFor(
        async () => {
          const link = linkIn(await status(hub));
          expect(link).toBeDefined();
          return link ?? '';
        },
        { timeout: 15_000 },
      );
      expect(await signInAsBrowser(second)).toMatch(/^200 /);
      await vi.waitFor(async () => expect(await status(hub)).toMatch(/stops asking/), { timeout: 15_000 });
      const answer = textOf(await hub.call('registry.call', { server: 'secure', tool: 'echo', arguments: {} }));
      expect(linkIn(answer)).toBeUndefined();
      expect((await stats(server)).authorizations).toBe(2);
    } finally {
      await hub.close();
    }
  });

  test('a declined sign-in: its link is never handed out again, the next answer has a new one', async () => {
    const home = await makeHubHome();
    const server = await startRemoteFixture('remote-oauth-server.mjs', ['--deny-first']);
    const hub = await spawnHub(home);
    try {
      const declined = await install(hub, server);
      expect(await signInAsBrowser(declined)).toMatch(/^400 .*access_denied/);
      const next = await vi.waitFor(
        async () => {
          const answer = textOf(await hub.call('registry.call', { server: 'secure', tool: 'echo', arguments: {} }));
          const link = linkIn(answer);
          expect(link, answer).toBeDefined();
          return link ?? '';
        },
        { timeout: 15_000 },
      );
      expect(next).not.toBe(declined);
      expect(await signInAsBrowser(next)).toMatch(/^200 .*Signed in/);
      await vi.waitFor(
        async () => expect(textOf(await hub.call('secure_echo', { text: 'ok' }))).toBe('secure echo: ok'),
        { timeout: 15_000 },
      );
    } finally {
      await hub.close();
    }
  });
});
