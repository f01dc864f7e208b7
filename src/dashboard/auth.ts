// Who may use the dashboard: a one-time login token, a session key in a header, Host and Origin.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

// Who may use the dashboard. The page `hub ui` opens carries a one-time login token; the page's
// own script trades it (POST /api/login, this page's Origin) for a session key it keeps in its
// tab's sessionStorage and sends as `Authorization: Bearer` on every API call and on its event
// stream. No cookie: a browser sends 127.0.0.1's cookies to every port on it, so another local
// user's page on another port would receive a cookie and could replay it; sessionStorage is
// readable only by this origin (scheme, host and port). Host is checked on every request (DNS
// rebinding) and Origin on every state-changing one (a page elsewhere posting to 127.0.0.1).

// A login URL not used within this long is dead: it may sit in a terminal's scrollback.
const LOGIN_TTL_MS = 5 * 60_000;

const secret = (): string => randomBytes(32).toString('base64url');

const same = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

export type Refusal = { status: 401 | 403; message: string };

export interface DashboardAuth {
  /** A fresh one-time token (good once, for LOGIN_TTL_MS). */
  issueLogin(): string;
  /** A session key for a live, unused token; undefined (and nothing changes) otherwise. */
  redeem(token: string): string | undefined;
  /** Logins issued and not yet used or expired (someone is about to open the page). */
  waiting(): number;
  /** Why this request is refused, or undefined when it may go on. */
  check(request: IncomingMessage, options: { needsSession: boolean; changesState: boolean }): Refusal | undefined;
}

const BEARER = /^Bearer ([\w-]{1,200})$/;

function keyOf(request: IncomingMessage): string | undefined {
  return BEARER.exec(request.headers.authorization ?? '')?.[1];
}

export function createAuth(port: () => number, now: () => number = Date.now): DashboardAuth {
  const logins = new Map<string, number>();
  const sessions = new Set<string>();
  const hosts = () => [`127.0.0.1:${port()}`, `localhost:${port()}`, `[::1]:${port()}`];
  return {
    issueLogin() {
      const token = secret();
      logins.set(token, now() + LOGIN_TTL_MS);
      return token;
    },
    redeem(token) {
      let found: string | undefined;
      for (const [known, expires] of logins) {
        if (expires < now()) logins.delete(known);
        else if (same(known, token)) found = known;
      }
      if (found === undefined) return undefined;
      logins.delete(found);
      const session = secret();
      sessions.add(session);
      return session;
    },
    waiting() {
      let live = 0;
      for (const expires of logins.values()) if (expires >= now()) live += 1;
      return live;
    },
    check(request, { needsSession, changesState }) {
      const host = request.headers.host ?? '';
      if (!hosts().includes(host))
        return { status: 403, message: `Host "${host}" is not this dashboard; open the URL hub-mcp ui printed.` };
      if (changesState) {
        const origin = request.headers.origin;
        if (origin === undefined || !hosts().some(allowed => origin === `http://${allowed}`))
          return {
            status: 403,
            message: `Origin "${origin ?? '(none)'}" may not change anything here; use the dashboard page itself.`,
          };
      }
      if (needsSession) {
        const key = keyOf(request);
        if (key === undefined || ![...sessions].some(session => same(session, key)))
          return { status: 401, message: 'Not logged in: run hub-mcp ui and open the one-time URL it prints.' };
      }
      return undefined;
    },
  };
}
