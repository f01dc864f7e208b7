// The environment npm runs with for one install (issue 27): the shared hub keeps the environment
// of the entry that started it, so its npm_config_*, proxy and CA variables (and everything
// else in it) are another client's. An install runs npm with the environment of the session
// that asked, as that client's own in-process hub did: its npm variables win over the user's
// npmrc files, as in a terminal, and no other client's variable reaches npm or its scripts.

// Where npm is found and where the user's npmrc and cache are: the hub's when a client's
// environment has none (a client that starts servers with an emptied environment).
const FALLBACK_KEYS = ['PATH', 'HOME'] as const;

/**
 * The environment for npm on behalf of a session with this environment. A session with no
 * environment of its own (the CLI, an in-process hub, `hub serve`, the dashboard) runs npm with
 * the hub process's: undefined.
 */
export function npmEnvironment(
  session: Readonly<Record<string, string | undefined>> | undefined,
  hub: NodeJS.ProcessEnv = process.env,
): Record<string, string> | undefined {
  if (session === undefined) return undefined;
  const env = Object.fromEntries(
    Object.entries(session).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  for (const key of FALLBACK_KEYS) if (env[key] === undefined && hub[key] !== undefined) env[key] = hub[key];
  return env;
}
