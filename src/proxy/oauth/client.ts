// An OAuth client registered beforehand, from the install's env, where no registration is offered.
import { HubError } from '../../core/errors.js';

// A remote server whose authorization server does not offer dynamic client registration signs in
// with a client registered beforehand. Its id (and secret, for a confidential client) come from
// the install's env, which hub already keeps secret (never echoed, never logged), rather than
// from new registry.install fields: hub's own tool listing is at its byte budget.
export const CLIENT_ID_ENV = 'OAUTH_CLIENT_ID';
export const CLIENT_SECRET_ENV = 'OAUTH_CLIENT_SECRET';
// Where hub's Client ID Metadata Document is published (SEP-991): its URL is hub's client id at
// an authorization server that fetches such documents, instead of registering.
export const CLIENT_METADATA_URL_ENV = 'OAUTH_CLIENT_METADATA_URL';

/** The CIMD URL in a server's env: an https URL with a path (the spec's rule), or undefined. */
export function clientMetadataUrl(env: Readonly<Record<string, string>>): string | undefined {
  const value = env[CLIENT_METADATA_URL_ENV]?.trim();
  if (!value) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'https:' || url.pathname === '/')
    throw new HubError(
      'INVALID_INPUT',
      `env ${CLIENT_METADATA_URL_ENV} is ${JSON.stringify(value)}: give the https URL (with a path, such as https://example.org/hub-client.json) where hub's client metadata document is published (docs/remote-sign-in.md).`,
    );
  return url.href;
}

/** The OAuth client information the SDK sends (client_secret only for a confidential client). */
export interface ConfiguredClient {
  readonly client_id: string;
  readonly client_secret?: string;
}

/** The configured client in a server's env, or undefined when it has none (DCR then). */
export function configuredClient(env: Readonly<Record<string, string>>): ConfiguredClient | undefined {
  const id = env[CLIENT_ID_ENV]?.trim();
  const secret = env[CLIENT_SECRET_ENV];
  if (!id) {
    if (secret)
      throw new HubError(
        'INVALID_INPUT',
        `env ${CLIENT_SECRET_ENV} is set without ${CLIENT_ID_ENV}: give the client id it belongs to in env as well.`,
      );
    return undefined;
  }
  return { client_id: id, ...(secret ? { client_secret: secret } : {}) };
}

/** The SDK's error for an authorization server without registration, made to say the fix. */
export function explainNoRegistration(error: unknown, server: string): unknown {
  if (!(error instanceof Error) || !/does not support dynamic client registration/.test(error.message)) return error;
  return new HubError(
    'AUTH_REQUIRED',
    `Server "${server}"'s authorization server does not let hub register itself as a client (no dynamic client registration): register an OAuth client for hub there (redirect URI http://127.0.0.1/callback, any port) and give its id with registry.install { url, name: "${server}", env: { "${CLIENT_ID_ENV}": "…", "${CLIENT_SECRET_ENV}": "…" } } (the secret only if it has one). Where it takes client id metadata documents, ${CLIENT_METADATA_URL_ENV} in env does instead (docs/remote-sign-in.md).`,
  );
}
