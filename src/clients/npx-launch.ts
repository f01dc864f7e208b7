// The npx launch, and telling a server.js that runs from npx's cache.
import { realpathSync } from 'node:fs';
import { sep } from 'node:path';
import { PACKAGE_NAME } from '../core/package-name.js';
import type { Launch } from './types.js';

const realpathOrSelf = (file: string): string => {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
};

/**
 * True when this server.js runs from npx's cache (`<npm cache>/_npx/<hash>/node_modules/...`):
 * npm prunes and re-hashes that folder, so an entry naming the path there breaks later.
 */
export function inNpxCache(serverJs: string): boolean {
  return [serverJs, realpathOrSelf(serverJs)].some(path => path.split(sep).includes('_npx'));
}

// What every MCP server's README tells clients to run: npx fetches the package when its cache
// has none. The spec has no version, so the client follows the releases as other npx entries do.
export const npxLaunch = (): Launch => ({ command: 'npx', args: ['-y', PACKAGE_NAME] });
