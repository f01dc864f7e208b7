// hub as an OAuth client of one remote server: tokens, registration and refresh for the SDK.
import { randomBytes } from 'node:crypto';
import {
  refreshAuthorization,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
} from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  AuthorizationServerMetadata,
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { HUB_VERSION } from '../../core/version.js';
import { withLock } from '../../store/lock/lock.js';
import { readOAuthState, updateOAuthState, type OAuthState } from '../../store/oauth-store.js';
import type { ConfiguredClient } from './client.js';

// A token this close to its end is refreshed before it is sent: the lesser of a minute and half
// its lifetime, so a short-lived token is not refreshed on every request.
const REFRESH_AHEAD_MS = 60_000;

/**
 * hub as an OAuth client of one remote server, for the SDK's auth(): its tokens, client
 * registration, PKCE verifier and discovery live in HUB_HOME/auth/<server>.json (oauth-store.ts).
 * The access token is refreshed before it expires; when refresh fails the server's 401 makes the
 * SDK authorize again, and redirectToAuthorization hands the URL to the sign-in (oauth/signin.ts).
 */
export class HubOAuthProvider implements OAuthClientProvider {
  #refreshing: Promise<void> | undefined;
  // The server answered 403 insufficient_scope: the SDK's next auth() must ask the person for the
  // wider scope, but it refreshes first when it can, and a refresh never widens a token's scope.
  #stepUp = false;
  /** A client registered beforehand (OAUTH_CLIENT_ID in the install's env), used instead of DCR. */
  configured: ConfiguredClient | undefined;
  /** hub's Client ID Metadata Document (OAUTH_CLIENT_METADATA_URL): the SDK uses it where the authorization server takes one. */
  clientMetadataUrl?: string;
  /** The PKCE verifiers of the last few authorization URLs, newest first. */
  verifiers: string[] = [];

  constructor(
    private readonly file: string,
    private readonly serverUrl: string,
    /** The loopback redirect URI this sign-in listens on (http://127.0.0.1:<port>/callback). */
    private readonly redirectUri: string,
    private readonly onAuthorizationUrl: (url: URL) => void,
    private readonly now: () => number = Date.now,
  ) {}

  #read(): OAuthState | undefined {
    return readOAuthState(this.file, this.serverUrl);
  }

  #update(change: (state: OAuthState) => OAuthState): void {
    updateOAuthState(this.file, this.serverUrl, change);
  }

  get redirectUrl(): string {
    return this.redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: `hub ${HUB_VERSION} (MCP)`,
      redirect_uris: [this.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A public client on the person's machine: PKCE, no secret.
      token_endpoint_auth_method: this.configured?.client_secret === undefined ? 'none' : 'client_secret_post',
    };
  }

  state(): string {
    const state = randomBytes(16).toString('hex');
    this.#update(current => ({ ...current, state }));
    return state;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    // A configured client wins over any registration: it is never stored, so its secret stays in env.
    if (this.configured) return { ...this.configured };
    const stored = this.#read();
    // Registered for another redirect URI (the port was taken): register again.
    if (stored?.redirectUri !== undefined && stored.redirectUri !== this.redirectUri) return undefined;
    return stored?.clientInformation as OAuthClientInformationMixed | undefined;
  }

  saveClientInformation(clientInformation: OAuthClientInformationMixed): void {
    this.registered.set(clientInformation.client_id, clientInformation);
    this.#update(current => ({ ...current, clientInformation, redirectUri: this.redirectUri }));
  }

  /** Registrations made in this process, by client id: a link's code is exchanged as the client it was made for. */
  readonly registered = new Map<string, OAuthClientInformationMixed>();

  /** The transports' fetch: it notes a step-up the server asks for (see #stepUp). */
  readonly fetch: FetchLike = async (url, init) => {
    const response = await fetch(url, init);
    if (response.status === 403 && /insufficient_scope/.test(response.headers.get('www-authenticate') ?? ''))
      this.#stepUp = true;
    return response;
  };

  async tokens(): Promise<OAuthTokens | undefined> {
    const stored = this.#read();
    if (this.#stepUp && stored?.tokens) {
      const { refresh_token: _kept, ...current } = stored.tokens;
      return current as OAuthTokens;
    }
    if (stored?.tokens && this.#endsSoon(stored)) {
      this.#refreshing ??= this.#refreshLocked(stored.tokens.refresh_token).finally(
        () => (this.#refreshing = undefined),
      );
      await this.#refreshing;
      return this.#read()?.tokens as OAuthTokens | undefined;
    }
    return stored?.tokens as OAuthTokens | undefined;
  }

  // Refresh tokens are often single-use (rotated): hubs sharing HUB_HOME refresh one at a time,
  // and one that waited re-reads the file, since another may have refreshed meanwhile.
  async #refreshLocked(seen: string | undefined): Promise<void> {
    try {
      await withLock(`${this.file}.lock`, async () => {
        const current = this.#read();
        if (!current?.tokens || current.tokens.refresh_token !== seen || !this.#endsSoon(current)) return;
        await this.#refresh(current);
      });
    } catch {
      // The lock timed out (a hub stuck refreshing): the token is sent as it is, as on failure.
    }
  }

  #endsSoon(stored: OAuthState): boolean {
    if (stored.expiresAt === undefined || stored.tokens?.refresh_token === undefined) return false;
    const lifetime = (stored.tokens.expires_in ?? 0) * 1000;
    const ahead = Math.min(REFRESH_AHEAD_MS, lifetime / 2);
    return stored.expiresAt - this.now() <= ahead;
  }

  // Refreshed ahead of time with what discovery stored; on failure the token is sent as it is,
  // and the server's 401 makes the SDK refresh again or authorize anew.
  async #refresh(stored: OAuthState): Promise<void> {
    const { discovery, tokens } = stored;
    const clientInformation = this.clientInformation();
    if (!discovery || !clientInformation || !tokens?.refresh_token) return;
    const resource = (discovery.resourceMetadata as { resource?: unknown } | undefined)?.resource;
    try {
      const fresh = await refreshAuthorization(discovery.authorizationServerUrl, {
        ...(discovery.authorizationServerMetadata !== undefined && {
          metadata: discovery.authorizationServerMetadata as AuthorizationServerMetadata,
        }),
        clientInformation,
        refreshToken: tokens.refresh_token,
        // Verbatim, as the SDK's auth() sends it (a URL object would add a trailing "/").
        ...(typeof resource === 'string' && { resource }),
      });
      this.saveTokens({ ...fresh, issuer: discovery.authorizationServerUrl } as OAuthTokens);
    } catch {
      // Left to the 401 path.
    }
  }

  saveTokens(tokens: OAuthTokens): void {
    this.#stepUp = false;
    const expiresAt = tokens.expires_in === undefined ? undefined : this.now() + tokens.expires_in * 1000;
    this.#update(({ expiresAt: _old, codeVerifier: _used, state: _state, ...current }) => ({
      ...current,
      tokens,
      ...(expiresAt !== undefined && { expiresAt }),
    }));
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.#stepUp = false;
    this.onAuthorizationUrl(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    // Two authorizations may interleave (state, then verifier, then URL): the sign-in pairs each
    // link with its verifier by the code challenge (oauth/signin.ts).
    this.verifiers = [codeVerifier, ...this.verifiers.slice(0, 7)];
    this.#update(current => ({ ...current, codeVerifier }));
  }

  codeVerifier(): string {
    const verifier = this.#read()?.codeVerifier;
    if (verifier === undefined) throw new Error('no sign-in is in progress for this server (no PKCE verifier)');
    return verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#update(current => ({ ...current, discovery: state as unknown as OAuthState['discovery'] }));
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#read()?.discovery as OAuthDiscoveryState | undefined;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    this.#update(current => {
      const next = { ...current };
      if (scope === 'all' || scope === 'tokens') {
        delete next.tokens;
        delete next.expiresAt;
      }
      if (scope === 'all' || scope === 'client') {
        delete next.clientInformation;
        delete next.redirectUri;
      }
      if (scope === 'all' || scope === 'verifier') delete next.codeVerifier;
      if (scope === 'all' || scope === 'discovery') delete next.discovery;
      return next;
    });
  }

  /** True once tokens are stored (by this hub, another one, or `hub login`). */
  signedIn(): boolean {
    return this.#read()?.tokens !== undefined;
  }
}
