// The session asked once per URL to open a remote server's sign-in (URL-mode elicitation).
import { randomUUID } from 'node:crypto';
import type { ClientSide } from '../sessions/client-side.js';
import type { SignInRequired } from './required.js';

const PROMPT_TIMEOUT_MS = 10 * 60_000;
// Each session is asked once per authorization URL: every call while the sign-in waits answers
// with the same URL, and a prompt per call would pile up in the client.
const asked = new WeakMap<object, Set<string>>();

/**
 * A remote server needs the person to sign in (at install, or a call met a revoked token or a
 * failed refresh): the session concerned is asked to open the URL (URL-mode elicitation) when its
 * client takes that. The tool result carries the URL either way, so nothing waits for this.
 */
export function askToSignIn(
  session: object | undefined,
  signIn: Pick<SignInRequired, 'server' | 'authorizationUrl'>,
  message = `Sign in to ${signIn.server} again so hub can use its tools.`,
): void {
  if (session === undefined) return;
  const client = session as Partial<ClientSide>;
  if (!client.initialized?.() || client.capabilities?.()?.elicitation?.url === undefined || !client.elicitInput) return;
  const urls = asked.get(session) ?? new Set<string>();
  if (urls.has(signIn.authorizationUrl)) return;
  urls.add(signIn.authorizationUrl);
  asked.set(session, urls);
  client
    .elicitInput(
      {
        mode: 'url',
        message,
        url: signIn.authorizationUrl,
        elicitationId: randomUUID(),
      },
      // No AbortSignal.timeout: the SDK would send the client a notifications/cancelled when it
      // fires, even after the answer (it never removes its listener); its own timeout is cleared.
      { signal: new AbortController().signal, timeout: PROMPT_TIMEOUT_MS },
    )
    .catch(() => undefined);
}
