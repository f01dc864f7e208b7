// start_process sandbox "project": the project folder it may write, and the bwrap line it runs in.
import { existsSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { HubError } from '../../core/errors.js';
import { clip } from '../../core/clip.js';
import { resolveExecutable } from '../../core/executable.js';
import type { HubPaths } from '../../core/paths.js';
import { bwrapMountArgs, secretPathsOf, within, type MountPlan } from '../../core/sandbox-mounts.js';
import type { ProcessRecord } from '../../store/schema.js';

// A dev process in the sandbox writes its project folder and the temporary folders, and reads
// the rest of the machine but the secret folders (core/sandbox-mounts.ts), HUB_HOME, the agents'
// sockets (/run/user) and docker's. Its network is this machine's (a dev server must be reached
// and reach its database on localhost) or none. Unlike a child server's, its sandbox outlives
// hub (no --die-with-parent), as the process does.

export type ProcessSandbox = NonNullable<ProcessRecord['sandbox']>;
/** What start_process and a project's .hub.json may ask. */
export const PROCESS_SANDBOXES = ['project', 'project-offline'] as const;
export type ProcessSandboxAsk = (typeof PROCESS_SANDBOXES)[number];

const HIDDEN = ['/run/user'];
const HIDDEN_FILES = ['/run/docker.sock', '/var/run/docker.sock', '/run/podman/podman.sock'];
const TEMPORARY = ['/tmp', '/var/tmp'];
const MAX_DEPTH = 64;

const real = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

/** Where the sandbox looks: the person's HOME (the session's, never the call's env), hub's own TMPDIR, the keeper's SHELL and PATH. */
export interface SandboxHost {
  readonly home: string;
  readonly tmpdir?: string | undefined;
  readonly shell?: string | undefined;
  readonly path?: string | undefined;
}

export const sandboxHost = (baseEnv: NodeJS.ProcessEnv, runEnv: Readonly<Record<string, string>>): SandboxHost => ({
  home: baseEnv.HOME ?? homedir(),
  tmpdir: process.env.TMPDIR,
  shell: runEnv.SHELL ?? process.env.SHELL,
  path: runEnv.PATH ?? process.env.PATH,
});

// The project a working folder belongs to: the nearest folder up with .git or .hub.json (a
// command run in a package of a monorepo writes the repository), else the folder itself.
function projectOf(cwd: string): string {
  let folder = cwd;
  for (let depth = 0; depth < MAX_DEPTH; depth += 1) {
    if (existsSync(join(folder, '.git')) || existsSync(join(folder, '.hub.json'))) return folder;
    const up = dirname(folder);
    if (up === folder) break;
    folder = up;
  }
  return cwd;
}

/** The sandbox a start records, checked: its project folder must be one a process may write. */
export function processSandbox(
  ask: ProcessSandboxAsk,
  cwd: string,
  paths: HubPaths,
  host: SandboxHost,
): ProcessSandbox {
  const project = real(projectOf(real(cwd)));
  const home = real(host.home);
  const refuse = (why: string) =>
    new HubError(
      'INVALID_INPUT',
      `Field "sandbox": its project folder would be "${clip(project)}", ${why}. Pass a cwd inside a project folder, or start without sandbox.`,
    );
  if (project === '/' || within(home, project)) throw refuse('which holds your home folder');
  if (within(project, real(paths.home)) || within(real(paths.home), project))
    throw refuse(`which is in (or holds) HUB_HOME (${paths.home})`);
  for (const secret of secretPathsOf(home)) if (within(project, secret)) throw refuse(`which is in ${secret}`);
  return { project, network: ask === 'project-offline' ? 'none' : 'host' };
}

// Writable temporary folders: /tmp, /var/tmp and hub's own TMPDIR (never the call's env, which
// could name ~/.config), unless it is in the home folder or HUB_HOME, or holds either.
function temporary(host: SandboxHost, home: string, hubHome: string): string[] {
  const folders = TEMPORARY.filter(dir => existsSync(dir)).map(real);
  const tmpdir = host.tmpdir === undefined || host.tmpdir === '' ? undefined : real(host.tmpdir);
  if (
    tmpdir !== undefined &&
    existsSync(tmpdir) &&
    ![home, hubHome].some(dir => within(dir, tmpdir) || within(tmpdir, dir))
  )
    folders.push(tmpdir);
  return folders;
}

/** The mounts of a dev process's sandbox on this machine now. */
export function processMountPlan(sandbox: ProcessSandbox, cwd: string, paths: HubPaths, host: SandboxHost): MountPlan {
  const home = real(host.home);
  const hubHome = real(paths.home);
  return {
    home,
    hubHome,
    hidden: HIDDEN.filter(dir => existsSync(dir)),
    hiddenFiles: HIDDEN_FILES.filter(file => existsSync(file)),
    // The home folder readable again (step 2 hides it), its secrets hidden after.
    read: existsSync(home) ? [home] : [],
    write: [sandbox.project, ...temporary(host, home, hubHome)],
    secrets: secretPathsOf(home)
      .filter(path => existsSync(path))
      .map(path => ({ path, dir: statSync(path).isDirectory() })),
    ownRead: [],
    ownWrite: [],
    cwd,
  };
}

/**
 * What the keeper runs for a sandboxed record: bwrap, then the command as the keeper would have
 * run it (a shell line through $SHELL -c, or the argv). Its process group is the keeper's still:
 * kill_process reaches bwrap and everything in it.
 */
export function sandboxedRun(
  record: ProcessRecord,
  sandbox: ProcessSandbox,
  paths: HubPaths,
  host: SandboxHost,
): { command: string; args: string[] } {
  const bwrap = resolveExecutable('bwrap', `/usr/bin:/bin:${host.path ?? ''}`, '/');
  if (bwrap === undefined)
    throw new HubError(
      'SPAWN_FAILED',
      'Field "sandbox": bubblewrap (bwrap) is not installed (Debian/Ubuntu: apt-get install bubblewrap), so the sandbox cannot run; install it, or start without sandbox.',
    );
  const plan = processMountPlan(sandbox, record.cwd, paths, host);
  const run =
    record.args === undefined ? [host.shell || '/bin/sh', '-c', record.command] : [record.command, ...record.args];
  return {
    command: bwrap,
    args: [
      ...(sandbox.network === 'none' ? ['--unshare-net'] : []),
      ...bwrapMountArgs(plan, { dieWithParent: false }),
      '--',
      ...run,
    ],
  };
}
