// One remote server's OAuth state in HUB_HOME/auth/<server>.json: tokens, registration, sign-in.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../core/write-atomic.js';

// HUB_HOME/auth/<server>.json: one remote server's OAuth state, owned by this module alone. The
// folder is 0700 and each file 0600 (written privately, then renamed): tokens are credentials.
// What the SDK hands over (tokens, client information, discovery) is kept as it came, since its
// auth() reads them back unchanged (the `issuer` stamp included).

export const StoredTokensSchema = z.looseObject({
  access_token: z.string(),
  token_type: z.string(),
  refresh_token: z.string().optional(),
  expires_in: z.number().optional(),
  scope: z.string().optional(),
  issuer: z.string().nullish(),
});

export const OAuthStateSchema = z.object({
  /** The server URL these credentials are for: a record pointing elsewhere never gets them. */
  serverUrl: z.string(),
  tokens: StoredTokensSchema.optional(),
  /** Epoch ms when the access token expires (from expires_in at save time). */
  expiresAt: z.number().optional(),
  clientInformation: z.looseObject({ client_id: z.string() }).optional(),
  /** PKCE verifier and state of the sign-in in progress. */
  codeVerifier: z.string().optional(),
  state: z.string().optional(),
  /** The loopback redirect URI the client was registered with (its port is reused). */
  redirectUri: z.string().optional(),
  discovery: z.looseObject({ authorizationServerUrl: z.string() }).optional(),
});
export type OAuthState = z.infer<typeof OAuthStateSchema>;
export type StoredTokens = z.infer<typeof StoredTokensSchema>;

const MAX_BYTES = 256 * 1024;

/** The stored state for this server URL; undefined when none, unreadable, or for another URL. */
export function readOAuthState(file: string, serverUrl: string): OAuthState | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  if (text.length > MAX_BYTES) return undefined;
  try {
    const parsed = OAuthStateSchema.safeParse(JSON.parse(text));
    return parsed.success && parsed.data.serverUrl === serverUrl ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Changes the stored state (read, change, atomic private write). */
export function updateOAuthState(
  file: string,
  serverUrl: string,
  change: (state: OAuthState) => OAuthState,
): OAuthState {
  const next = change(readOAuthState(file, serverUrl) ?? { serverUrl });
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileAtomic(file, `${JSON.stringify(next, null, 2)}\n`);
  return next;
}

/** Forgets everything about this server's sign-in (hub logout, uninstall). True when there was something. */
export function removeOAuthState(file: string): boolean {
  try {
    readFileSync(file);
  } catch {
    return false;
  }
  rmSync(file, { force: true });
  return true;
}
