// Each npm-installed server gets HUB_HOME/data/<name> (0700): outside servers/<name>, which
// upgrades replace and uninstall deletes, so what the server keeps there survives both.
import { existsSync, statSync } from 'node:fs';
import { chmod, copyFile, mkdir, readdir } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';

/** Creates the data folder (or tightens an existing one) and returns its path. */
export async function prepareDataDir(folder: string): Promise<string> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await chmod(folder, 0o700);
  return folder;
}

const DATA_PLACEHOLDER = '{data}';

/** Args with "{data}" replaced by the data folder (catalog defaults such as "{data}/data.sqlite"). */
export const expandDataArgs = (args: readonly string[], folder: string | undefined): string[] =>
  args.map(arg => (folder === undefined ? arg : arg.replaceAll(DATA_PLACEHOLDER, folder)));

/** The data env a known server needs (e.g. MEMORY_FILE_PATH), for the keys the person did not set. */
export function dataEnvFor(
  dataEnv: Readonly<Record<string, string>> | undefined,
  folder: string,
  given: Readonly<Record<string, string>>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(dataEnv ?? {})
      .filter(([key]) => given[key] === undefined)
      .map(([key, file]) => [key, join(folder, file)]),
  );
}

/**
 * An arg that names a file relative to the working directory: it would land in (or be read from)
 * a folder hub replaces. Flags, URLs, absolute paths and "{data}" paths are fine.
 */
export function isRelativePathArg(arg: string): boolean {
  const value = arg.startsWith('-') ? (arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : '') : arg;
  if (value === '' || isAbsolute(value) || value.startsWith(DATA_PLACEHOLDER)) return false;
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return false;
  return /^\.{1,2}(\/|$)|^~/.test(value) || value.includes('/') || /\.[a-z0-9]{1,8}$/i.test(value);
}

// Runtime files are searched this deep in a package folder (server-memory writes to dist/).
const MAX_DEPTH = 3;

async function findFile(folder: string, name: string, depth = 0): Promise<string | undefined> {
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return undefined;
  }
  const hit = entries.find(entry => entry.isFile() && entry.name === name);
  if (hit) return join(folder, hit.name);
  if (depth >= MAX_DEPTH) return undefined;
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const found = await findFile(join(folder, entry.name), name, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Records made before data folders kept a server's data inside its package (server-memory's
 * dist/memory.jsonl): copy each data file into the data folder before the package folder goes.
 * Returns the files copied.
 */
export async function rescueDataFiles(
  packageFolder: string,
  dataEnv: Readonly<Record<string, string>> | undefined,
  folder: string,
): Promise<string[]> {
  const copied: string[] = [];
  for (const file of Object.values(dataEnv ?? {})) {
    const found = await findFile(packageFolder, basename(file));
    if (!found) continue;
    const target = join(folder, file);
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    await copyFile(found, target);
    copied.push(target);
  }
  return copied;
}

/** Where a fresh npm install keeps its data: the folder, the data env merged under the person's env, args expanded. */
export async function serverDataFields(
  folder: string,
  dataEnv: Readonly<Record<string, string>> | undefined,
  env: Readonly<Record<string, string>>,
  args: readonly string[],
): Promise<{ dataDir: string; env: Record<string, string>; args: string[] }> {
  await prepareDataDir(folder);
  return { dataDir: folder, env: { ...dataEnvFor(dataEnv, folder, env), ...env }, args: expandDataArgs(args, folder) };
}

/**
 * Older records ran npm servers in their package folder, so a relative arg such as the sqlite
 * entry's "./data.sqlite" put the user's file there: copy each such file into the data folder
 * and point the arg at the copy. Returns the args to keep and the files copied.
 */
export async function rescueRelativeArgs(
  args: readonly string[],
  cwd: string,
  folder: string,
): Promise<{ args: string[]; copied: string[] }> {
  const copied: string[] = [];
  const kept: string[] = [];
  for (const arg of args) {
    const eq = arg.startsWith('-') ? arg.indexOf('=') : -1;
    const value = eq === -1 ? arg : arg.slice(eq + 1);
    const source = join(cwd, value);
    if (!isRelativePathArg(arg) || !existsSync(source) || !statSync(source).isFile()) {
      kept.push(arg);
      continue;
    }
    const target = join(folder, basename(value));
    await copyFile(source, target);
    copied.push(target);
    kept.push(eq === -1 ? target : `${arg.slice(0, eq + 1)}${target}`);
  }
  return { args: kept, copied };
}

/**
 * A record from before data folders gets one: its data files (known data env, relative args) are
 * copied out of the package folder, and the data env points into the folder from now on.
 */
export async function adoptDataDir(options: {
  readonly packageFolder: string;
  readonly cwd: string;
  readonly folder: string;
  readonly dataEnv: Readonly<Record<string, string>> | undefined;
  readonly env: Readonly<Record<string, string>>;
  readonly args: readonly string[];
}): Promise<{ env: Record<string, string>; args: string[]; copied: string[] }> {
  const { folder, env } = options;
  await prepareDataDir(folder);
  const unset = Object.fromEntries(Object.entries(options.dataEnv ?? {}).filter(([key]) => env[key] === undefined));
  const files = await rescueDataFiles(options.packageFolder, unset, folder);
  const relative = await rescueRelativeArgs(options.args, options.cwd, folder);
  return {
    env: { ...dataEnvFor(unset, folder, env), ...env },
    args: relative.args,
    copied: [...files, ...relative.copied],
  };
}
