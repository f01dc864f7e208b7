// tty processes under `script`: the line it runs, finding the pseudo-terminal, resizing it.
import { shellQuoteAlways } from '../../core/shell-quote.js';
import { execFileSync } from 'node:child_process';
import { HubError } from '../../core/errors.js';
import { resolveExecutable } from '../../core/executable.js';
import type { ProcessRecord } from '../../store/schema.js';
import { platform } from '../../core/platform/platform.js';
import { descendantsOf, openFilesOf } from './process-tree.js';

// tty processes run under `script` (util-linux's on Linux, present on every mainstream
// distribution, in Debian's essential bsdutils; BSD's on macOS: core/platform/platform.ts): it holds the pseudo-terminal's master, copies the keeper's stdin
// FIFO into it and its output into the log. No native module and no Node process stays
// resident: the keeper stays a ~2 MB shell plus a ~1 MB script. Resizing needs no helper
// either: `stty -F` (`-f` on macOS) on the terminal's slave sets its size, and the kernel sends SIGWINCH.
export const DEFAULT_COLS = 120;
export const DEFAULT_ROWS = 30;

export interface TtySize {
  readonly cols: number;
  readonly rows: number;
}

/**
 * The line `script` runs (with SHELL=/bin/sh): size the terminal, give the command back its own
 * SHELL, then exec it as the keeper would have: a shell line through $SHELL -c, or the argv.
 */
export function ptyLine(
  command: string,
  args: readonly string[] | undefined,
  env: NodeJS.ProcessEnv,
  size: TtySize,
): string {
  const shell = env.SHELL === undefined ? 'unset SHELL' : `SHELL=${shellQuoteAlways(env.SHELL)}; export SHELL`;
  const run =
    args === undefined
      ? `exec ${shellQuoteAlways(env.SHELL || '/bin/sh')} -c ${shellQuoteAlways(command)}`
      : `exec ${[command, ...args].map(shellQuoteAlways).join(' ')}`;
  return `stty cols ${size.cols} rows ${size.rows} 2>/dev/null; ${shell}; ${run}`;
}

export function checkPtyAvailable(pathValue: string | undefined, cwd: string): void {
  if (resolveExecutable('script', `/usr/bin:/bin:${pathValue ?? ''}`, cwd) === undefined)
    throw new HubError(
      'SPAWN_FAILED',
      platform().tools.flavour === 'bsd'
        ? 'Field "tty": a terminal needs `script`, which was not found in /usr/bin or /bin, or start without tty.'
        : 'Field "tty": a terminal needs util-linux `script`, which was not found in /usr/bin or /bin (install util-linux or bsdutils), or start without tty.',
    );
}

/** The pseudo-terminal's slave (/dev/pts/N, /dev/ttysN) of a running tty process, from its processes' stdin. */
export function findPty(record: ProcessRecord): string | undefined {
  const { isTerminal } = platform().tools;
  return openFilesOf(descendantsOf(record.pid), 1).find(file => isTerminal(file.target))?.target;
}

/** Sets the terminal's size; the kernel sends SIGWINCH to its foreground process group. */
export function resizePty(record: ProcessRecord, size: TtySize): void {
  const pty = findPty(record);
  if (pty === undefined)
    throw new HubError(
      'INVALID_INPUT',
      `Field "resize": process "${record.id}" has no terminal now (it is between runs or has ended).`,
    );
  execFileSync('stty', platform().tools.sttyArgs(pty, size.cols, size.rows), {
    timeout: 2_000,
    stdio: 'ignore',
    env: { PATH: '/usr/bin:/bin' },
  });
}
