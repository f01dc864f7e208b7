import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { ServerRecord } from '../../store/schema.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { configuredClient, explainNoRegistration } from './client.js';
import type { SignInRequired } from './required.js';
import { SignIn } from './signin.js';

// How a remote connection takes part in OAuth: the provider for the SDK transports, and the
// sign-in error that replaces the SDK's UnauthorizedError.

export interface RemoteAuth {
  readonly authProvider?: OAuthClientProvider;
  /** Why a call cannot go on until the person signs in (the error, with the authorization URL). */
  readonly signInNeeded?: () => SignInRequired | undefined;
  readonly signIn?: SignIn;
}

const hasOwnAuthorization = (record: ServerRecord): boolean =>
  Object.keys(record.remote?.headers ?? {}).some(name => name.toLowerCase() === 'authorization');

/** OAuth for this remote server, unless its headers carry their own Authorization. */
export async function remoteAuth(
  record: ServerRecord,
  authFile: ((name: string) => string) | undefined,
): Promise<RemoteAuth> {
  if (!record.remote || !authFile || hasOwnAuthorization(record)) return {};
  const signIn = await SignIn.for(authFile(record.name), record.remote.url, record.name);
  signIn.provider.configured = configuredClient(record.env);
  return { authProvider: signIn.provider, signInNeeded: () => signIn.required(), signIn };
}

/** The sign-in error for a connection the server refused for want of a sign-in; else the error itself. */
export async function signInOr(auth: RemoteAuth, error: unknown): Promise<unknown> {
  if (!auth.signIn) return error;
  if (!(error instanceof UnauthorizedError)) return explainNoRegistration(error, auth.signIn.server);
  await auth.signIn.ready();
  return auth.signIn.required() ?? error;
}
