// Node's own headers pointed out to native builds, so node-gyp does not download them.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

// A native build (node-gyp) downloads the headers of the running Node unless told where they
// are: on a machine that reaches only a package registry that download fails, while most Node
// installs (nodejs.org tarballs, distro packages, nvm, Homebrew) carry them in <prefix>/include/node.
// Only when the user set no nodedir of their own (environment or npmrc).

/** npm_config_nodedir for npm: the running Node's install prefix when its headers are there. */
export function nodeHeadersEnv(
  env: Readonly<Record<string, string | undefined>>,
  npmrcNodedir: string | undefined,
  execPath: string = process.execPath,
): Record<string, string> {
  if (npmrcNodedir !== undefined) return {};
  if (Object.keys(env).some(key => key.toLowerCase() === 'npm_config_nodedir')) return {};
  const prefix = dirname(dirname(execPath));
  return existsSync(join(prefix, 'include', 'node', 'node.h')) ? { npm_config_nodedir: prefix } : {};
}
