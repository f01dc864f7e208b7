// Which sandbox this machine can run children in (bubblewrap on Linux), probed once per process.
import { execFile } from 'node:child_process';
import { resolveExecutable } from './executable.js';

// Which sandbox this machine can run, found once per hub process: bubblewrap on Linux, tried
// with the same namespaces every child gets, so "available" means a child can really start in it.

export type SandboxProbe =
  | { readonly kind: 'bwrap'; readonly path: string; readonly version: string }
  | { readonly kind: 'none'; readonly why: string };

const PROBE_TIMEOUT_MS = 5_000;

const INSTALL_HINT =
  'install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap)';

function run(file: string, args: readonly string[]): Promise<{ ok: boolean; out: string }> {
  return new Promise(resolve => {
    execFile(file, [...args], { timeout: PROBE_TIMEOUT_MS, encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({ ok: error === null, out: `${stdout}${stderr}`.trim() }),
    );
  });
}

async function probe(pathEnv: string | undefined): Promise<SandboxProbe> {
  if (process.platform !== 'linux')
    return { kind: 'none', why: `hub has no sandbox for ${process.platform} yet (bubblewrap is Linux only)` };
  const path = resolveExecutable('bwrap', pathEnv, '/');
  if (path === undefined) return { kind: 'none', why: `bubblewrap (bwrap) is not installed: ${INSTALL_HINT}` };
  // The namespaces every child gets: a kernel or container without user namespaces fails here.
  const tried = await run(path, ['--ro-bind', '/', '/', '--dev', '/dev', '--unshare-pid', '--proc', '/proc', 'true']);
  if (!tried.ok)
    return {
      kind: 'none',
      why: `bubblewrap cannot create namespaces here (${tried.out.slice(0, 300) || 'no output'}); user namespaces may be off (sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu the AppArmor rule for bwrap)`,
    };
  const version = await run(path, ['--version']);
  return { kind: 'bwrap', path, version: version.out.replace(/^bubblewrap\s*/, '') || 'unknown' };
}

let found: Promise<SandboxProbe> | undefined;

/** The sandbox children run in here (probed once; `fresh` probes again, e.g. after an install). */
export function sandboxProbe(fresh = false): Promise<SandboxProbe> {
  if (fresh || found === undefined) found = probe(process.env.PATH);
  return found;
}
