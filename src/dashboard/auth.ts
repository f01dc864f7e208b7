import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

// Who may use the dashboard: a one-time login token (in the URL `hub ui` opens) is exchanged for
// a session cookie, then dies. Host is checked on every request (DNS rebinding) and Origin on
// every state-changing one (a page on another site posting to 127.0.0.1).

export const COOKIE = 'hub_session';
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
  /** A session cookie value for a live, unused token; undefined (and nothing changes) otherwise. */
  redeem(token: string): string | undefined;
  /** Logins issued and not yet used or expired (someone is about to open the page). */
  waiting(): number;
  /** Why this request is refused, or undefined when it may go on. */
  check(request: IncomingMessage, options: { needsSession: boolean; changesState: boolean }): Refusal | undefined;
}

function cookieOf(request: IncomingMessage): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === COOKIE) return value.join('=');
  }
  return undefined;
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
        return { status: 403, message: `Host "${host}" is not this dashboard; open the URL hub ui printed.` };
      if (changesState) {
        const origin = request.headers.origin;
        if (origin === undefined || !hosts().some(allowed => origin === `http://${allowed}`))
          return {
            status: 403,
            message: `Origin "${origin ?? '(none)'}" may not change anything here; use the dashboard page itself.`,
          };
      }
      if (needsSession) {
        const cookie = cookieOf(request);
        if (cookie === undefined || ![...sessions].some(session => same(session, cookie)))
          return { status: 401, message: 'Not logged in: run hub ui and open the one-time URL it prints.' };
      }
      return undefined;
    },
  };
}
