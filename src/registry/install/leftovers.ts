// `uninstall --purge` with no record: what a half-done install left under the name, removed.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { HubPaths } from '../../core/paths.js';
import { SERVER_NAME_PATTERN } from '../sources/server-name.js';

/**
 * `uninstall --purge <name>` with no record: what an install killed midway (or an older hub's
 * failed install) left under that name, the install folder (and an upgrade's staging copies)
 * and the data folder, removed. Only for a valid server name: it is joined into paths.
 */
export async function purgeLeftovers(name: string, paths: HubPaths): Promise<string[]> {
  if (!SERVER_NAME_PATTERN.test(name)) return [];
  const folder = paths.serverDir(name);
  const found = [folder, `${folder}.upgrade`, `${folder}.previous`, paths.serverDataDir(name)].filter(path =>
    existsSync(path),
  );
  for (const path of found) await rm(path, { recursive: true, force: true });
  return found;
}
