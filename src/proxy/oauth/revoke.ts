// `hub logout`: a remote server's tokens revoked at its authorization server, the file removed.
import { errorMessage } from '../../core/errors.js';
import { readOAuthState } from '../../store/oauth-store.js';
import type { ConfiguredClient } from './client.js';

// hub logout asks the authorization server to revoke the tokens (RFC 7009) when its metadata
// advertises a revocation endpoint; the local file is removed whatever the answer.
const REVOKE_TIMEOUT_MS = 10_000;

/** What revocation did, in words for the person: undefined when there was nothing to revoke. */
export async function revokeStoredTokens(
  file: string,
  serverUrl: string,
  configured: ConfiguredClient | undefined,
): Promise<string | undefined> {
  const state = readOAuthState(file, serverUrl);
  if (!state?.tokens) return undefined;
  const metadata = state.discovery?.authorizationServerMetadata as { revocation_endpoint?: unknown } | undefined;
  const endpoint = metadata?.revocation_endpoint;
  if (typeof endpoint !== 'string')
    return 'its authorization server offers no revocation endpoint, so the tokens were only deleted here';
  const client = configured ?? (state.clientInformation as ConfiguredClient | undefined);
  // The refresh token first: revoking it ends the grant; then the access token.
  const tokens: [string, string][] = [];
  if (state.tokens.refresh_token) tokens.push([state.tokens.refresh_token, 'refresh_token']);
  tokens.push([state.tokens.access_token, 'access_token']);
  try {
    for (const [token, hint] of tokens) {
      const body = new URLSearchParams({ token, token_type_hint: hint });
      if (client?.client_id) body.set('client_id', client.client_id);
      if (client?.client_secret) body.set('client_secret', client.client_secret);
      const response = await fetch(endpoint, { method: 'POST', body, signal: AbortSignal.timeout(REVOKE_TIMEOUT_MS) });
      if (!response.ok)
        return `revocation at ${endpoint} failed (HTTP ${response.status}); the tokens were deleted here anyway`;
    }
  } catch (error) {
    return `revocation at ${endpoint} failed (${errorMessage(error)}); the tokens were deleted here anyway`;
  }
  return `its tokens were revoked at ${endpoint}`;
}
