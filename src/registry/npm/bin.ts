// An installed package's version and the bin npx would run, read from its package.json.
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, normalize } from 'node:path';
import { z } from 'zod';
import { HubError } from '../../core/errors.js';
import { unscopedName } from './spec.js';

// Only the fields hub reads from an installed package's package.json.
const PackageJsonSchema = z.looseObject({
  name: z.string().optional(),
  version: z.string(),
  bin: z.union([z.string(), z.record(z.string(), z.string())]).optional(),
});

export interface InstalledPackage {
  readonly version: string;
  /** The bin npx would run, as an absolute path. */
  readonly binPath: string;
  readonly binName: string;
}

/** The bin npx would pick: the only one, else the one named after the unscoped package name. */
export function chooseBin(
  packageName: string,
  bin: string | Record<string, string> | undefined,
): { name: string; file: string } {
  const own = unscopedName(packageName);
  const entries = typeof bin === 'string' ? [[own, bin] as const] : Object.entries(bin ?? {});
  const picked = entries.length === 1 ? entries[0] : entries.find(([name]) => name === own);
  if (!picked) {
    const names = entries.map(([name]) => `"${name}"`).join(', ');
    throw new HubError(
      'INSTALL_FAILED',
      entries.length === 0
        ? `Package "${packageName}" declares no "bin" in its package.json, so it cannot be run as an MCP server; register it with "command" and "args" instead.`
        : `Package "${packageName}" has several bins (${names}) and none is named "${own}"; register the one you want with "command" (node) and "args" (its path) instead.`,
    );
  }
  const [name, file] = picked;
  const clean = normalize(file);
  if (isAbsolute(clean) || clean.startsWith('..')) {
    throw new HubError(
      'INSTALL_FAILED',
      `Package "${packageName}" declares bin "${name}" outside its own folder (${file}); hub refuses to run it.`,
    );
  }
  return { name, file: clean };
}

/** Reads the installed package's version and bin from <prefix>/node_modules/<name>/package.json. */
export async function readInstalledPackage(prefix: string, packageName: string): Promise<InstalledPackage> {
  const folder = join(prefix, 'node_modules', packageName);
  let parsed;
  try {
    parsed = PackageJsonSchema.safeParse(JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')));
  } catch (error) {
    throw new HubError(
      'INSTALL_FAILED',
      `npm finished but ${join(folder, 'package.json')} could not be read (${(error as Error).message}).`,
      { cause: error },
    );
  }
  if (!parsed.success)
    throw new HubError(
      'INSTALL_FAILED',
      `The package.json of "${packageName}" has no valid "version"; it cannot be recorded.`,
    );
  const { name, file } = chooseBin(packageName, parsed.data.bin);
  return { version: parsed.data.version, binName: name, binPath: join(folder, file) };
}
