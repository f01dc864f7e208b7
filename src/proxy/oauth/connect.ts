// How a remote connection takes part in OAuth: its provider, and the sign-in error it ends with.
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { ServerRecord } from '../../store/schema.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { clientMetadataUrl, configuredClient, explainNoRegistration } from './client.js';
import { GrantProvider } from './grant.js';
import { grantSettings } from './grant-settings.js';
import type { SignInRequired } from './required.js';
import { SignIn } from './signin.js';

// How a remote connection takes part in OAuth: the provider for the SDK transports, and the
// sign-in error that replaces the SDK's UnauthorizedError.

export interface RemoteAuth {
  readonly authProvider?: OAuthClientProvider;
  /** Why a call cannot go on until the person signs in (the error, with the authorization URL). */
  readonly signInNeeded?: () => SignInRequired | undefined;
  readonly signIn?: SignIn;
  /** The transports' fetch, which notes a 403 insufficient_scope (a step-up) for the provider. */
  readonly fetch?: FetchLike;
}

const hasOwnAuthorization = (record: ServerRecord): boolean =>
  Object.keys(record.remote?.headers ?? {}).some(name => name.toLowerCase() === 'authorization');

/** OAuth for this remote server, unless its headers carry their own Authorization. */
export async function remoteAuth(
  record: ServerRecord,
  authFile: ((name: string) => string) | undefined,
): Promise<RemoteAuth> {
  if (!record.remote || !authFile || hasOwnAuthorization(record)) return {};
  // A grant configured for this server: tokens without a person at a browser, so no sign-in.
  const grant = grantSettings(record.env);
  if (grant) return { authProvider: new GrantProvider(authFile(record.name), record.remote.url, record.name, grant) };
  const signIn = await SignIn.for(authFile(record.name), record.remote.url, record.name);
  signIn.provider.configured = configuredClient(record.env);
  const cimd = clientMetadataUrl(record.env);
  if (cimd === undefined) delete signIn.provider.clientMetadataUrl;
  else signIn.provider.clientMetadataUrl = cimd;
  return { authProvider: signIn.provider, signInNeeded: () => signIn.required(), signIn, fetch: signIn.provider.fetch };
}

/** The sign-in error for a connection the server refused for want of a sign-in; else the error itself. */
export async function signInOr(auth: RemoteAuth, error: unknown): Promise<unknown> {
  if (!auth.signIn) return error;
  if (!(error instanceof UnauthorizedError)) return explainNoRegistration(error, auth.signIn.server);
  await auth.signIn.ready();
  return auth.signIn.required() ?? error;
}

type Requester = Pick<Client, 'request'>;

/**
 * A server may take `initialize` without a token and answer 401 (or 403 insufficient_scope) on
 * any later request: tools/list at start, a call, a resource read. Every request of the Client
 * ends the same way as a refused connect: the sign-in (or step-up) error with its URL. A request
 * after initialize answered means the sign-ins so far worked (oauth/signin.ts counts the ones that did not).
 */
export function signInOnRefusal(client: Requester, auth: RemoteAuth): void {
  const signIn = auth.signIn;
  if (!signIn) return;
  const request = client.request.bind(client);
  const guarded = async (...args: Parameters<Requester['request']>) => {
    try {
      const result = await request(...args);
      // Some servers take initialize without a token: only a later answer says the token is enough.
      if (args[0].method !== 'initialize') signIn.succeeded();
      return result;
    } catch (error) {
      throw await signInOr(auth, error);
    }
  };
  client.request = guarded as Requester['request'];
}
