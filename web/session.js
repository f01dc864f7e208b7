// The dashboard's credential: a session key this tab keeps in sessionStorage (readable by this
// origin only, port included) and sends as a header. Never a cookie: a browser sends 127.0.0.1's
// cookies to every port on it, so another local user's page on another port would get it.
const STORE = 'hub-session';

let key = sessionStorage.getItem(STORE) ?? undefined;

export const NOT_LOGGED_IN = 'Not logged in: run hub-mcp ui and open the one-time URL it prints.';

/** The headers that carry the key (none before login). */
export const authHeaders = () => (key === undefined ? {} : { authorization: `Bearer ${key}` });

/**
 * Redeems the one-time token of the address `hub ui` opened, once; resolves to an error text when
 * this tab is not logged in, undefined when it is.
 */
export async function logIn() {
  const token = location.pathname === '/login' ? new URLSearchParams(location.search).get('token') : null;
  if (token === null) return key === undefined ? NOT_LOGGED_IN : undefined;
  // The token leaves the address bar (and history) at once: it is good once anyway.
  history.replaceState(null, '', `/${location.hash}`);
  const response = await fetch('/api/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  }).catch(() => undefined);
  const data = await response?.json().catch(() => ({}));
  if (!response?.ok || typeof data?.session !== 'string')
    return key === undefined ? (data?.error ?? NOT_LOGGED_IN) : undefined;
  key = data.session;
  sessionStorage.setItem(STORE, key);
  return undefined;
}

/** The server no longer knows this key (the hub restarted): forget it. */
export function forget() {
  key = undefined;
  sessionStorage.removeItem(STORE);
}
