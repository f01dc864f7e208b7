// Token exchange and JWT bearer grant (SEP-990): an IdP's ID token turned into this server's grant.
import {
  type AddClientAuthentication,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { HubError } from '../../core/errors.js';
import { HUB_VERSION } from '../../core/version.js';
import { readOAuthState, updateOAuthState } from '../../store/oauth-store.js';
import type { GrantSettings } from './grant-settings.js';

// RFC 8693 token exchange and RFC 7523 JWT bearer grant, as enterprise-managed authorization
// (SEP-990) uses them: the IdP turns the person's ID token into an ID-JAG for this authorization
// server, which hub presents as its grant.
const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';
const IDP_TIMEOUT_MS = 15_000;

/**
 * hub as a non-interactive OAuth client of one remote server (no browser, no sign-in link): the
 * client credentials grant (a secret, or a private key signing a JWT: SEP-1046), or a grant the
 * person's identity provider issues (SEP-990). Tokens and discovery live in HUB_HOME/auth/<server>.json
 * like a sign-in's; the credentials stay in the install's env.
 */
export class GrantProvider implements OAuthClientProvider {
  readonly addClientAuthentication?: AddClientAuthentication;

  constructor(
    private readonly file: string,
    private readonly serverUrl: string,
    private readonly server: string,
    private readonly settings: GrantSettings,
  ) {
    const { clientId, privateKey, signingAlgorithm } = settings;
    if (privateKey !== undefined)
      this.addClientAuthentication = createPrivateKeyJwtAuth({
        issuer: clientId,
        subject: clientId,
        privateKey,
        alg: signingAlgorithm,
      });
  }

  // No redirect URL: the SDK's auth() fetches the token straight away (prepareTokenRequest).
  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { grant, clientSecret, privateKey } = this.settings;
    return {
      client_name: `hub ${HUB_VERSION} (MCP)`,
      redirect_uris: [],
      grant_types: [grant === 'jwt_bearer' ? JWT_BEARER : 'client_credentials'],
      token_endpoint_auth_method:
        privateKey !== undefined ? 'private_key_jwt' : clientSecret !== undefined ? 'client_secret_basic' : 'none',
    };
  }

  clientInformation(): OAuthClientInformationMixed {
    const { clientId, clientSecret } = this.settings;
    return { client_id: clientId, ...(clientSecret !== undefined && { client_secret: clientSecret }) };
  }

  tokens(): OAuthTokens | undefined {
    return readOAuthState(this.file, this.serverUrl)?.tokens as OAuthTokens | undefined;
  }

  saveTokens(tokens: OAuthTokens): void {
    updateOAuthState(this.file, this.serverUrl, ({ expiresAt: _old, ...current }) => ({
      ...current,
      tokens,
      ...(tokens.expires_in !== undefined && { expiresAt: Date.now() + tokens.expires_in * 1000 }),
    }));
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    updateOAuthState(this.file, this.serverUrl, current => ({
      ...current,
      discovery: state as unknown as NonNullable<ReturnType<typeof readOAuthState>>['discovery'],
    }));
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return readOAuthState(this.file, this.serverUrl)?.discovery as OAuthDiscoveryState | undefined;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'client' || scope === 'verifier') return;
    updateOAuthState(this.file, this.serverUrl, ({ tokens: _tokens, expiresAt: _at, discovery, ...rest }) => ({
      ...rest,
      ...(scope === 'tokens' && discovery !== undefined && { discovery }),
    }));
  }

  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    const params =
      this.settings.grant === 'jwt_bearer'
        ? new URLSearchParams({ grant_type: JWT_BEARER, assertion: await this.#identityGrant(scope) })
        : new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope) params.set('scope', scope);
    return params;
  }

  // The IdP exchanges the person's ID token for an ID-JAG naming this authorization server
  // (audience) and this MCP server (resource), as discovery found them.
  async #identityGrant(scope: string | undefined): Promise<string> {
    const { idpTokenEndpoint, idpClientId, idpIdToken } = this.settings;
    if (!idpTokenEndpoint || !idpIdToken)
      throw new HubError('INVALID_INPUT', 'OAUTH_GRANT=jwt_bearer without its IdP env');
    const discovery = this.discoveryState();
    const metadata = discovery?.authorizationServerMetadata as { issuer?: string } | undefined;
    const audience = metadata?.issuer ?? discovery?.authorizationServerUrl ?? '';
    const resource = (discovery?.resourceMetadata as { resource?: string } | undefined)?.resource ?? this.serverUrl;
    const body = new URLSearchParams({
      grant_type: TOKEN_EXCHANGE,
      requested_token_type: ID_JAG,
      subject_token: idpIdToken,
      subject_token_type: ID_TOKEN,
      audience,
      resource,
      ...(idpClientId !== undefined && { client_id: idpClientId }),
      ...(scope && { scope }),
    });
    const response = await fetch(idpTokenEndpoint, {
      method: 'POST',
      body,
      signal: AbortSignal.timeout(IDP_TIMEOUT_MS),
    });
    const answer = (await response.json().catch(() => ({}))) as { access_token?: unknown; error?: unknown };
    if (!response.ok || typeof answer.access_token !== 'string')
      throw new HubError(
        'AUTH_REQUIRED',
        `Server "${this.server}": the identity provider at ${idpTokenEndpoint} did not issue a grant for it (HTTP ${response.status}${typeof answer.error === 'string' ? `, ${answer.error}` : ''}): check OAUTH_IDP_ID_TOKEN (it expires) and OAUTH_IDP_CLIENT_ID in its env.`,
      );
    return answer.access_token;
  }

  // Never called: with no redirect URL the SDK does not start an authorization in a browser.
  redirectToAuthorization(): void {
    throw new HubError(
      'AUTH_REQUIRED',
      `Server "${this.server}" uses a configured grant (OAUTH_GRANT), not a sign-in.`,
    );
  }

  saveCodeVerifier(): void {}

  codeVerifier(): string {
    throw new HubError(
      'AUTH_REQUIRED',
      `Server "${this.server}" uses a configured grant (OAUTH_GRANT), not a sign-in.`,
    );
  }
}
