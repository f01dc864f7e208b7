// How a client starts this hub: the absolute node binary and dist/server.js.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Launch } from './types.js';

// dist/clients/launch.js → dist/server.js. From the sources (tests) the built file is
// ../../dist/server.js; whichever exists wins.
export function defaultServerJs(): string {
  const beside = fileURLToPath(new URL('../server.js', import.meta.url));
  const built = fileURLToPath(new URL('../../dist/server.js', import.meta.url));
  return existsSync(beside) || !existsSync(built) ? beside : built;
}

// The absolute node binary, not "node": GUI clients (Claude Desktop, Cursor started from the
// dock) do not see the PATH of a login shell, and nvm/volta installs are not on theirs.
export const hubLaunch = (serverJs: string = defaultServerJs(), nodePath: string = process.execPath): Launch => ({
  command: nodePath,
  args: [serverJs],
});
