// A grant hub obtains without a browser (OAUTH_GRANT and its credentials), read from a server's env.
import { HubError } from '../../core/errors.js';

// A grant hub obtains without a person at a browser, set per server in the install's env (kept
// secret like OAUTH_CLIENT_SECRET): OAUTH_GRANT names it, the rest are its credentials.
export const GRANT_ENV = 'OAUTH_GRANT';
const GRANTS = ['client_credentials', 'jwt_bearer'] as const;
export type Grant = (typeof GRANTS)[number];

export interface GrantSettings {
  readonly grant: Grant;
  readonly clientId: string;
  readonly clientSecret?: string | undefined;
  /** PEM (PKCS#8): the client authenticates with a JWT it signs (private_key_jwt). */
  readonly privateKey?: string | undefined;
  readonly signingAlgorithm: string;
  /** jwt_bearer: the identity provider's token endpoint, hub's client id there, the person's ID token. */
  readonly idpTokenEndpoint?: string | undefined;
  readonly idpClientId?: string | undefined;
  readonly idpIdToken?: string | undefined;
}

const set = (value: string | undefined): string | undefined => (value?.trim() ? value : undefined);

/** The configured grant in a server's env, or undefined when it has none (a sign-in then). */
export function grantSettings(env: Readonly<Record<string, string>>): GrantSettings | undefined {
  const grant = set(env[GRANT_ENV])?.trim();
  if (grant === undefined) return undefined;
  if (!(GRANTS as readonly string[]).includes(grant))
    throw new HubError(
      'INVALID_INPUT',
      `env ${GRANT_ENV} is ${JSON.stringify(grant)}: use client_credentials (a client secret or OAUTH_PRIVATE_KEY) or jwt_bearer (a grant from your identity provider), or remove it to sign in in a browser.`,
    );
  const clientId = set(env.OAUTH_CLIENT_ID)?.trim();
  if (clientId === undefined)
    throw new HubError(
      'INVALID_INPUT',
      `env ${GRANT_ENV}=${grant} needs OAUTH_CLIENT_ID: the client id the authorization server gave hub.`,
    );
  const privateKey = set(env.OAUTH_PRIVATE_KEY);
  const clientSecret = set(env.OAUTH_CLIENT_SECRET);
  if (grant === 'client_credentials' && privateKey === undefined && clientSecret === undefined)
    throw new HubError(
      'INVALID_INPUT',
      `env ${GRANT_ENV}=client_credentials needs OAUTH_CLIENT_SECRET or OAUTH_PRIVATE_KEY (a PKCS#8 PEM) to authenticate the client.`,
    );
  const idpTokenEndpoint = set(env.OAUTH_IDP_TOKEN_ENDPOINT)?.trim();
  const idpIdToken = set(env.OAUTH_IDP_ID_TOKEN)?.trim();
  if (grant === 'jwt_bearer' && (idpTokenEndpoint === undefined || idpIdToken === undefined))
    throw new HubError(
      'INVALID_INPUT',
      `env ${GRANT_ENV}=jwt_bearer needs OAUTH_IDP_TOKEN_ENDPOINT (your identity provider's token endpoint) and OAUTH_IDP_ID_TOKEN (the ID token it issued you).`,
    );
  return {
    grant: grant as Grant,
    clientId,
    clientSecret,
    privateKey,
    signingAlgorithm: set(env.OAUTH_SIGNING_ALGORITHM)?.trim() ?? 'RS256',
    idpTokenEndpoint,
    idpClientId: set(env.OAUTH_IDP_CLIENT_ID)?.trim(),
    idpIdToken,
  };
}
