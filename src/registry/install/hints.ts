// What the bundled catalog tells an install about a package: default args, env, its name.
import { findCatalogEntry } from '../sources/catalog.js';
import type { CatalogHints } from './install.js';
import { deriveServerName } from '../sources/server-name.js';

/** Catalog knowledge install uses: default args and required env of a known package. */
export const catalogHints = (packageName: string): CatalogHints | undefined => {
  const entry = findCatalogEntry(packageName);
  return (
    entry && {
      defaultArgs: entry.args,
      requiredEnv: entry.env.filter(env => env.required).map(env => env.name),
      dataEnv: entry.dataEnv,
      scripts: entry.scripts,
    }
  );
};

/** The catalog's own server name for a package, else one derived from the package name. */
export const suggestServerName = (packageName: string): string =>
  findCatalogEntry(packageName)?.name ?? deriveServerName(packageName);
