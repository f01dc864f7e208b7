import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

// A small tmpfs for tests of a full or read-only HUB_HOME. Mounting needs root with
// CAP_SYS_ADMIN (the project's machines and CI have it); elsewhere canMount() is false and such
// tests are skipped. Unmounted when the test ends.

function run(...args: string[]): boolean {
  return spawnSync(args[0]!, args.slice(1), { stdio: 'ignore' }).status === 0;
}

export const canMount: boolean = (() => {
  if (process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(tmpdir(), 'hub-mount-probe-'));
  const ok = run('mount', '-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe);
  if (ok) run('umount', probe);
  rmSync(probe, { recursive: true, force: true });
  return ok;
})();

export interface SmallFs {
  readonly dir: string;
  readOnly(): void;
}

/** A fresh tmpfs of sizeKb at a temporary folder. */
export function mountSmallFs(sizeKb: number): SmallFs {
  const dir = mkdtempSync(join(tmpdir(), 'hub-smallfs-'));
  if (!run('mount', '-t', 'tmpfs', '-o', `size=${sizeKb}k,mode=0700`, 'tmpfs', dir))
    throw new Error(`could not mount a tmpfs at ${dir}`);
  onTestFinished(() => {
    run('umount', '-l', dir);
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir,
    readOnly() {
      if (!run('mount', '-o', 'remount,ro', dir)) throw new Error(`could not remount ${dir} read-only`);
    },
  };
}
