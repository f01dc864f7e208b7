// The suite needs Node 22; hub itself runs on Node 20.5+. Which Node 22 the script uses, first
// found: HUB_NODE22, this Node, `node22` or `node` on PATH, else the npm package that ships the
// binary (`node-<platform>-<arch>@22`) installed once into .cache/conformance/ (gitignored). It is
// installed only for this script, never as a dependency of hub, so hub's users never get it.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const major = node => {
  try {
    return Number(/^v(\d+)/.exec(execFileSync(node, ['--version'], { encoding: 'utf8' }).trim())?.[1] ?? 0);
  } catch {
    return 0;
  }
};

/** A Node binary of major version 22 or later, and where it came from. */
export function findNode22(root, log) {
  const given = process.env.HUB_NODE22;
  if (given) {
    if (major(given) >= 22) return { node: given, from: 'HUB_NODE22' };
    throw new Error(`HUB_NODE22=${given} is not a Node 22 or later binary; unset it or point it at one.`);
  }
  if (Number(process.versions.node.split('.')[0]) >= 22) return { node: process.execPath, from: 'this Node' };
  for (const name of ['node22', 'node']) if (major(name) >= 22) return { node: name, from: `${name} on PATH` };
  const pkg = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
  const prefix = join(root, '.cache', 'conformance', 'node22');
  const bin = join(prefix, 'node_modules', pkg, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!existsSync(bin)) {
    log(`Node 22 not found (HUB_NODE22, PATH): installing ${pkg}@22 into ${prefix} (once)...`);
    execFileSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', `${pkg}@22`], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  if (major(bin) >= 22) return { node: bin, from: `${pkg}@22 in .cache/conformance` };
  throw new Error(`No Node 22: set HUB_NODE22 to a Node 22 binary (the npm install of ${pkg}@22 did not give one).`);
}
