// bubblewrap's mount arguments from a plan, and the secret paths: shared by child servers and dev processes.
import { isAbsolute, join, relative } from 'node:path';

// The bubblewrap command line of a sandbox: pure, from a plan proxy/sandbox/plan.ts (a child
// server) or process/lifecycle/sandbox.ts (a dev process) makes on this machine's files. The
// order of the mounts is the policy: bwrap applies them in order, so what comes later covers what
// came before.
//
//   1. the system read-only (/ bound read-only), fresh /dev and /proc (own pid namespace: no
//      other process's environment or memory is visible), private /tmp
//   2. hidden: every home folder (the person's HOME becomes an empty read-only one), XDG runtime
//      sockets (ssh/gpg agents, keyrings), docker's socket, HUB_HOME
//   3. granted: the session's roots and the server's own read/write grants
//   4. hidden again, whatever 3 granted: the secret folders and HUB_HOME
//   5. its own: install folder read-only, data folder writable

/** Folders and files under HOME never readable inside a sandbox, whatever is granted. */
export const SECRET_PATHS = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gh',
  '.npmrc',
  '.netrc',
  '.docker',
  '.kube',
  '.azure',
  '.config/gcloud',
  '.git-credentials',
  '.pypirc',
  '.password-store',
  '.local/share/keyrings',
] as const;

/** Where a sandbox's mounts come from (the network is set apart: each user has its own). */
export interface MountPlan {
  /** The person's HOME: hidden, a private empty one in its place (unless granted in step 3). */
  readonly home: string;
  readonly hubHome: string;
  /** Other folders hidden in step 2 (that exist here): /home, /root, /run/user. */
  readonly hidden: readonly string[];
  /** Sockets and files hidden in step 2 (docker.sock). */
  readonly hiddenFiles: readonly string[];
  /** Step 3: readable, and writable. Absolute real paths. */
  readonly read: readonly string[];
  readonly write: readonly string[];
  /** Step 4: the secret paths that exist on this machine, folder or not. */
  readonly secrets: readonly { readonly path: string; readonly dir: boolean }[];
  /** Step 5. */
  readonly ownRead: readonly string[];
  readonly ownWrite: readonly string[];
  readonly cwd?: string | undefined;
}

/** child is parent or under it. */
export const within = (child: string, parent: string): boolean => {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

const byDepth = (paths: readonly string[]): string[] =>
  [...new Set(paths)].sort((a, b) => a.split('/').length - b.split('/').length);

/**
 * Every argument of bwrap before the command. dieWithParent (a child server's): it ends with hub;
 * a dev process is meant to outlive hub, so its sandbox does not.
 */
export function bwrapMountArgs(plan: MountPlan, options: { readonly dieWithParent: boolean }): string[] {
  const args = ['--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  if (options.dieWithParent) args.unshift('--die-with-parent');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp');
  for (const dir of byDepth([...plan.hidden, plan.home, plan.hubHome])) args.push('--tmpfs', dir);
  for (const file of plan.hiddenFiles) args.push('--ro-bind', '/dev/null', file);
  const granted = [...plan.read, ...plan.write];
  const writable = new Set(plan.write);
  for (const path of byDepth(granted)) args.push(writable.has(path) ? '--bind' : '--ro-bind', path, path);
  const exposed = [...granted, ...plan.ownRead, ...plan.ownWrite];
  for (const secret of plan.secrets) {
    if (!exposed.some(path => within(secret.path, path))) continue;
    if (secret.dir) args.push('--tmpfs', secret.path);
    else args.push('--ro-bind', '/dev/null', secret.path);
  }
  if (granted.some(path => within(plan.hubHome, path))) args.push('--tmpfs', plan.hubHome);
  const ownWrite = new Set(plan.ownWrite);
  for (const path of byDepth([...plan.ownRead, ...plan.ownWrite]))
    args.push(ownWrite.has(path) ? '--bind' : '--ro-bind', path, path);
  // The private HOME is empty and read-only (its XDG folders point into the data folder): a
  // write to ~/.bashrc fails rather than landing somewhere that looks like it worked.
  if (!exposed.includes(plan.home)) args.push('--remount-ro', plan.home);
  if (plan.cwd !== undefined) args.push('--chdir', plan.cwd);
  return args;
}

/** The secret paths of a HOME. */
export const secretPathsOf = (home: string): string[] => SECRET_PATHS.map(path => join(home, path));
