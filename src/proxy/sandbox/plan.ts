// What one child may reach: grants from its record, settings and roots, checked on this machine.
import { existsSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HubPaths } from '../../core/paths.js';
import { resolveExecutable } from '../../core/executable.js';
import type { ServerRecord } from '../../store/schema.js';
import { secretPathsOf, within, type SandboxPlan } from './mounts.js';

// What one child may reach, from its record, its settings and the session's roots, checked
// against this machine's files: a path that does not exist, is relative, or resolves (through
// symlinks) into a secret folder or HUB_HOME is left out, never widened.

export interface PlanInput {
  readonly record: ServerRecord;
  readonly paths: HubPaths;
  /** The person's HOME. */
  readonly home: string;
  /** The session's roots, as absolute paths. */
  readonly roots: readonly string[];
  /** The child's environment (its values may name its files). */
  readonly env: Readonly<Record<string, string>>;
}

export interface PlannedSandbox {
  readonly plan: SandboxPlan;
  /** Variables set for the child inside the sandbox (TMPDIR, per-server caches). */
  readonly env: Record<string, string>;
  /** Grants left out, and why (written to the server's log). */
  readonly refused: string[];
}

const real = (path: string): string | undefined => {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
};

const XDG = [
  ['XDG_CONFIG_HOME', '.config'],
  ['XDG_CACHE_HOME', '.cache'],
  ['XDG_DATA_HOME', '.local/share'],
  ['XDG_STATE_HOME', '.local/state'],
] as const;
const HIDDEN = ['/home', '/root', '/run/user'];
const HIDDEN_FILES = ['/run/docker.sock', '/var/run/docker.sock', '/run/podman/podman.sock'];

/** Why a path cannot be granted (a person's grant or one derived from the record), or undefined. */
export function grantProblem(
  path: string,
  paths: HubPaths,
  home: string,
  own: readonly string[] = [],
): string | undefined {
  if (!isAbsolute(path)) return `"${path}" is not an absolute path`;
  const resolved = real(path);
  if (resolved === undefined) return `"${path}" does not exist`;
  if (resolved === '/') return `"${path}" is the whole file system`;
  for (const secret of secretPathsOf(home))
    if (within(resolved, secret) || within(resolved, real(secret) ?? secret))
      return `"${path}" is (or is in) ${secret}, which no server may read`;
  const hubHome = real(paths.home) ?? paths.home;
  if (within(resolved, hubHome) && !own.some(dir => within(resolved, dir)))
    return `"${path}" is in HUB_HOME (${paths.home}), which holds every server's secrets`;
  return undefined;
}

// A path the record names (its cwd, an arg, an env value: a database file, a folder to serve)
// is the server's own, writable: the folder it is, or the folder a file is (or will be) in. A
// folder too broad to give (/, /tmp, a home folder, HUB_HOME or a parent of them) gives the
// existing file alone; a secret folder or HUB_HOME gives nothing.
function namedPath(path: string, input: PlanInput, own: readonly string[]): string | undefined {
  if (!isAbsolute(path) || path.length > 4096) return undefined;
  const exists = existsSync(path);
  const isDir = exists && statSync(path).isDirectory();
  const folder = isDir ? path : dirname(path);
  if (!existsSync(folder) || grantProblem(folder, input.paths, input.home, own) !== undefined) return undefined;
  const resolved = real(folder)!;
  const broad = ['/', '/tmp', '/var/tmp', ...HIDDEN, input.home, real(input.paths.home) ?? input.paths.home];
  if (!broad.some(dir => within(dir, resolved))) return resolved;
  return exists && !isDir && grantProblem(path, input.paths, input.home, own) === undefined ? real(path) : undefined;
}

// The project a hidden script or executable belongs to (the outermost folder up with package.json
// or node_modules, short of a folder too broad to give): a script in a project under /tmp needs
// that project's node_modules, which a private /tmp would otherwise hide. Outermost, because a
// nested package.json (a fixtures folder's, a dependency's) is not where node_modules are.
function packageRoot(path: string, broad: readonly string[]): string | undefined {
  let found: string | undefined;
  let folder = dirname(path);
  for (let depth = 0; depth < 32 && !broad.includes(folder); depth += 1) {
    if (existsSync(join(folder, 'package.json')) || existsSync(join(folder, 'node_modules'))) found = folder;
    const up = dirname(folder);
    if (up === folder) break;
    folder = up;
  }
  return found;
}

// An executable under HOME (nvm's node, ~/.local/bin/uvx): the installation it belongs to.
function installOf(executable: string): string {
  const folder = dirname(executable);
  return basename(folder) === 'bin' ? dirname(folder) : folder;
}

export function planSandbox(input: PlanInput): PlannedSandbox {
  const { record, paths, home } = input;
  const refused: string[] = [];
  const settings = record.settings?.sandbox;
  const hubHome = real(paths.home) ?? paths.home;
  const dataDir = record.dataDir ?? paths.serverDataDir(record.name);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const ownWrite = [real(dataDir) ?? dataDir];
  const serverDir = paths.serverDir(record.name);
  const own = [...ownWrite, ...(existsSync(serverDir) ? [real(serverDir)!] : [])];
  const ownRead = own.slice(1);
  // What the record names: its command, its working folder, paths in its args and env.
  const executable = resolveExecutable(record.command, input.env.PATH ?? process.env.PATH, record.cwd ?? '/');
  const exe = executable === undefined ? undefined : real(executable);
  // Only when hidden (nvm's node under HOME, a script under /tmp): the system is readable anyway.
  const hiddenAreas = ['/tmp', '/var/tmp', ...HIDDEN, home, hubHome];
  if (
    exe !== undefined &&
    hiddenAreas.some(dir => within(exe, dir)) &&
    grantProblem(exe, paths, home, own) === undefined
  ) {
    const install = installOf(exe);
    ownRead.push(grantProblem(install, paths, home, own) === undefined && install !== home ? install : exe);
  }
  // Scripts the record runs from a hidden area (its executable, or a file in its args): their package, read-only.
  const broad = ['/', '/tmp', '/var/tmp', ...HIDDEN, home, hubHome];
  // hub's own installation (code only: an npx cache under HOME, a clone under /tmp), read-only:
  // what hub itself runs is no secret, and a server started through it may load from it.
  const self = packageRoot(fileURLToPath(import.meta.url), broad);
  if (self !== undefined && grantProblem(self, paths, home, own) === undefined) ownRead.push(self);
  for (const file of [exe, ...record.args.map(arg => (isAbsolute(arg) ? real(arg) : undefined))]) {
    if (file === undefined || !hiddenAreas.some(dir => within(file, dir))) continue;
    const root = packageRoot(file, broad);
    if (root !== undefined && grantProblem(root, paths, home, own) === undefined && !ownRead.includes(root))
      ownRead.push(root);
  }
  // The record's own env only: inherited variables (TMPDIR: the shared hub's socket folder may be
  // there) are not the server's to claim.
  for (const value of [record.cwd, ...record.args, ...Object.values(record.env)]) {
    if (value === undefined || value === '' || value.includes('\n')) continue;
    const named = namedPath(value, input, own);
    if (named !== undefined && !ownWrite.includes(named)) ownWrite.push(named);
  }
  const grant = (list: readonly string[] | undefined, into: string[], what: string) => {
    for (const path of list ?? []) {
      const problem = grantProblem(path, paths, home, own);
      if (problem === undefined) into.push(real(path)!);
      else refused.push(`${what} ${problem}: left out`);
    }
  };
  const read: string[] = [];
  const write: string[] = [];
  const rootsWritable = settings?.write?.includes('roots') === true;
  grant(input.roots, rootsWritable ? write : read, 'root');
  grant(
    settings?.write?.filter(path => path !== 'roots'),
    write,
    'write grant',
  );
  grant(settings?.read, read, 'read grant');
  const env: Record<string, string> = { TMPDIR: '/tmp' };
  for (const [key, folder] of XDG) if (input.env[key] === undefined) env[key] = join(dataDir, folder);
  // Package runners keep their downloads per server: a shared cache would let one server
  // plant code another runs.
  const runner = basename(record.command);
  if ((runner === 'npx' || runner === 'npm') && input.env.npm_config_cache === undefined)
    env.npm_config_cache = join(dataDir, '.npm');
  if ((runner === 'uvx' || runner === 'uv') && input.env.UV_CACHE_DIR === undefined) {
    env.UV_CACHE_DIR = join(dataDir, '.uv-cache');
    const pythons = join(home, '.local/share/uv');
    if (existsSync(pythons)) ownRead.push(real(pythons)!);
  }
  const secrets = secretPathsOf(home)
    .filter(path => existsSync(path))
    .map(path => ({ path, dir: statSync(path).isDirectory() }));
  return {
    plan: {
      home,
      hubHome,
      hidden: HIDDEN.filter(dir => existsSync(dir)),
      hiddenFiles: HIDDEN_FILES.filter(file => existsSync(file)),
      read,
      write,
      secrets,
      ownRead,
      ownWrite,
      network: settings?.network ?? 'all',
      cwd: record.cwd !== undefined && existsSync(record.cwd) ? record.cwd : dataDir,
    },
    env,
    refused,
  };
}
