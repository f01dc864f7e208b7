import type { IncomingMessage } from 'node:http';
import { describe, expect, test } from 'vitest';
import { createAuth } from '../../src/dashboard/auth.js';

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('dashboard auth', () => {
  test('a login token works once, and not after five minutes', () => {
    let now = 1_000;
    const auth = createAuth(
      () => 4000,
      () => now,
    );
    const token = auth.issueLogin();
    const session = auth.redeem(token);
    expect(session).toMatch(/^[\w-]{43}$/);
    expect(auth.redeem(token)).toBeUndefined();
    const late = auth.issueLogin();
    now += 5 * 60_000 + 1;
    expect(auth.redeem(late)).toBeUndefined();
    expect(auth.redeem('')).toBeUndefined();
  });

  test('Host always, Origin for changes, the Authorization key for everything but login; a cookie is no credential', () => {
    const auth = createAuth(() => 4000);
    const session = auth.redeem(auth.issueLogin())!;
    const ok = { host: '127.0.0.1:4000', authorization: `Bearer ${session}` };
    expect(auth.check(request(ok), { needsSession: true, changesState: false })).toBeUndefined();
    expect(
      auth.check(request({ ...ok, host: 'localhost:4000' }), { needsSession: true, changesState: false }),
    ).toBeUndefined();
    expect(
      auth.check(request({ ...ok, host: 'evil.test:4000' }), { needsSession: true, changesState: false })?.status,
    ).toBe(403);
    expect(
      auth.check(request({ ...ok, host: '127.0.0.1:4001' }), { needsSession: true, changesState: false })?.status,
    ).toBe(403);
    expect(auth.check(request({ host: ok.host }), { needsSession: true, changesState: false })?.status).toBe(401);
    expect(
      auth.check(request({ ...ok, authorization: `Bearer ${session}x` }), { needsSession: true, changesState: false })
        ?.status,
    ).toBe(401);
    // Another port of 127.0.0.1 receives this host's cookies: the key in a cookie opens nothing.
    expect(
      auth.check(request({ host: ok.host, cookie: `hub_session=${session}` }), {
        needsSession: true,
        changesState: false,
      })?.status,
    ).toBe(401);
    const change = { needsSession: true, changesState: true };
    expect(auth.check(request({ ...ok, origin: 'http://127.0.0.1:4000' }), change)).toBeUndefined();
    expect(auth.check(request(ok), change)?.message).toMatch(/Origin "\(none\)"/);
    expect(auth.check(request({ ...ok, origin: 'http://evil.test' }), change)?.status).toBe(403);
    expect(auth.check(request({ ...ok, origin: 'https://127.0.0.1:4000' }), change)?.status).toBe(403);
  });
});
