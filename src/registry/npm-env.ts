// The environment npm runs with for one install (issue 27): the shared hub keeps the environment
// of the entry that started it, so its npm variables are another client's. An install takes the
// npm-relevant variables of the session that asked, over the user's npm configuration (npmrc
// files), and none of the hub process's own.

/** npm's settings (npm_config_*), the proxy and the CA variables npm and Node read. */
const NPM_RELEVANT =
  /^(npm_config_.+|https?_proxy|no_proxy|all_proxy|node_extra_ca_certs|ssl_cert_file|ssl_cert_dir|node_tls_reject_unauthorized)$/i;

export const isNpmVariable = (key: string): boolean => NPM_RELEVANT.test(key);

/**
 * The environment for npm on behalf of a session with this environment: the hub's without its
 * npm-relevant variables, plus the session's. A session with no environment of its own (the CLI,
 * an in-process hub, `hub serve`) runs npm with the hub's environment: undefined.
 */
export function npmEnvironment(
  session: Readonly<Record<string, string | undefined>> | undefined,
  hub: NodeJS.ProcessEnv = process.env,
): Record<string, string> | undefined {
  if (session === undefined) return undefined;
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(hub)) if (value !== undefined && !isNpmVariable(key)) env[key] = value;
  for (const [key, value] of Object.entries(session)) if (value !== undefined && isNpmVariable(key)) env[key] = value;
  return env;
}
