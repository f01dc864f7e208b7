// hub login <server> / hub logout <server>: the OAuth sign-in of a remote server from a terminal.
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { HubError } from '../core/errors.js';
import { clientMetadataUrl, configuredClient, explainNoRegistration } from '../proxy/oauth/client.js';
import { grantSettings } from '../proxy/oauth/grant-settings.js';
import { revokeStoredTokens } from '../proxy/oauth/revoke.js';
import { SignIn, SIGN_IN_TIMEOUT_MS } from '../proxy/oauth/signin.js';
import { removeOAuthState } from '../store/oauth-store.js';
import { openContext } from '../store/open-context.js';
import type { ServerRecord } from '../store/schema.js';
import { parseCommandArgs } from './args.js';
import { CLI_LOG, type CliCommand } from './command.js';
import { EXIT_OK, EXIT_USAGE } from './errors.js';
import { usageOf, type CommandName } from './usage.js';

async function remoteRecord(command: CommandName, argv: readonly string[]) {
  const { positionals } = parseCommandArgs(command, argv, {});
  if (positionals.length !== 1) return undefined;
  const name = positionals[0]!;
  const { config, store } = openContext({ log: CLI_LOG });
  const record: ServerRecord | undefined = (await store.read()).servers[name];
  if (!record)
    throw new HubError('NOT_FOUND', `No server named "${name}" is installed. Run hub-mcp servers to see them.`);
  if (!record.remote)
    throw new HubError(
      'INVALID_INPUT',
      `Server "${name}" is not a remote server: only remote (URL) servers sign in; local servers take their keys in env.`,
    );
  return { name, record, remote: record.remote, file: config.paths.authFile(name) };
}

/** hub login <server>: sign in now (refresh when a refresh token works), waiting for the browser. */
export const login: CliCommand = async (argv, io) => {
  const found = await remoteRecord('login', argv);
  if (!found) {
    io.err(`hub-mcp login: give the name of one installed remote server.\n${usageOf('login')}\n`);
    return EXIT_USAGE;
  }
  const { name, record, remote, file } = found;
  if (Object.keys(remote.headers ?? {}).some(header => header.toLowerCase() === 'authorization'))
    throw new HubError(
      'INVALID_INPUT',
      `Server "${name}" sends its own Authorization header (registry.install headers), so it does not sign in with OAuth.`,
    );
  const grant = grantSettings(record.env);
  if (grant)
    throw new HubError(
      'INVALID_INPUT',
      `Server "${name}" gets its tokens without a sign-in (OAUTH_GRANT=${grant.grant} in its env): there is nothing to sign in to.`,
    );
  const signIn = await SignIn.for(file, remote.url, name);
  signIn.provider.configured = configuredClient(record.env);
  const cimd = clientMetadataUrl(record.env);
  if (cimd !== undefined) signIn.provider.clientMetadataUrl = cimd;
  const result = await auth(signIn.provider, { serverUrl: remote.url }).catch((error: unknown) => {
    throw explainNoRegistration(error, name);
  });
  if (result === 'AUTHORIZED') {
    io.out(`Signed in to ${name} (its stored sign-in was refreshed).\n`);
    return EXIT_OK;
  }
  await signIn.ready();
  const pending = signIn.required();
  if (!pending) throw new HubError('INTERNAL', `The sign-in to ${name} did not start; try again.`);
  io.out(
    `Open this URL in a browser to sign in to ${name}:\n\n  ${pending.authorizationUrl}\n\nWaiting up to ${SIGN_IN_TIMEOUT_MS / 60_000} minutes...\n`,
  );
  // The loopback listener does not hold the process; this does, until the sign-in ends.
  const hold = setInterval(() => undefined, 60_000);
  try {
    await pending.signedIn;
  } finally {
    clearInterval(hold);
  }
  io.out(`Signed in to ${name}. Running hubs start it on its next call (or at once, if they were waiting).\n`);
  return EXIT_OK;
};

/** hub logout <server>: revoke its tokens at the server (RFC 7009) when it can, then forget them here. */
export const logout: CliCommand = async (argv, io) => {
  const found = await remoteRecord('logout', argv);
  if (!found) {
    io.err(`hub-mcp logout: give the name of one installed remote server.\n${usageOf('logout')}\n`);
    return EXIT_USAGE;
  }
  const { name, record, remote, file } = found;
  let client;
  try {
    client = configuredClient(record.env);
  } catch {
    client = undefined;
  }
  const revoked = await revokeStoredTokens(file, remote.url, client);
  io.out(
    removeOAuthState(file)
      ? `Signed out of ${name}: ${revoked === undefined ? '' : `${revoked}; `}its tokens and client registration are removed (${file}).\n`
      : `${name} was not signed in; nothing to remove.\n`,
  );
  return EXIT_OK;
};
