import { mkdir, rm } from 'node:fs/promises';
import { HubError } from '../errors.js';
import type { Logger } from '../logger.js';

export interface NpmInstallOptions {
  readonly prefix: string;
  readonly spec: string;
  readonly allowScripts: boolean;
  readonly log: Logger;
  /** Each line npm writes (stdout and stderr), for progress and for a person watching. */
  readonly onLine?: (line: string) => void;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;
const ERROR_TAIL_LINES = 12;

/** The exact argv hub runs (never through a shell); `--` keeps the spec from being read as an option. */
export function npmInstallArgs(prefix: string, spec: string, allowScripts: boolean): string[] {
  return [
    'install',
    '--prefix',
    prefix,
    ...(allowScripts ? [] : ['--ignore-scripts']),
    '--no-audit',
    '--no-fund',
    '--omit=dev',
    '--no-progress',
    // http level prints one line per fetch: progress a caller can see while npm works.
    '--loglevel=http',
    '--',
    spec,
  ];
}

// npm's own error lines are what a person needs; the http fetch lines are noise there.
function errorTail(lines: readonly string[]): string {
  const useful = lines.filter(line => line.trim() !== '' && !/^npm (http|verbose|timing|info)\b/.test(line));
  return useful.slice(-ERROR_TAIL_LINES).join('\n');
}

/** Runs npm install into its own prefix folder; on any failure the folder is removed and INSTALL_FAILED thrown. */
export async function npmInstall(options: NpmInstallOptions): Promise<void> {
  const { prefix, spec, allowScripts, log } = options;
  await mkdir(prefix, { recursive: true, mode: 0o700 });
  const args = npmInstallArgs(prefix, spec, allowScripts);
  log.info({ spec, prefix, args }, 'npm install');
  const lines: string[] = [];
  // Loaded on first use: hub's start path does not need execa.
  const { execa } = await import('execa');
  const subprocess = execa('npm', args, {
    cwd: prefix,
    all: true,
    reject: false,
    stdin: 'ignore',
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    forceKillAfterDelay: 2_000,
    ...(options.signal && { cancelSignal: options.signal }),
  });
  try {
    for await (const line of subprocess.iterable({ from: 'all' })) {
      lines.push(line);
      if (lines.length > 400) lines.splice(0, 200);
      options.onLine?.(line);
    }
  } catch {
    // The result below says why the stream ended.
  }
  const result = await subprocess;
  if (!result.failed) return;
  await rm(prefix, { recursive: true, force: true });
  const why = result.isCanceled
    ? 'it was cancelled by the caller'
    : result.timedOut
      ? `it did not finish within ${Math.round((options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s`
      : (result as { code?: string }).code === 'ENOENT'
        ? 'npm was not found on PATH (install Node.js with npm, or register the server with "command")'
        : `npm exited with code ${String(result.exitCode)}`;
  const tail = errorTail(lines);
  log.warn({ spec, exitCode: result.exitCode, tail }, 'npm install failed');
  throw new HubError(
    result.isCanceled ? 'CANCELLED' : 'INSTALL_FAILED',
    `npm install of "${spec}" failed: ${why}; nothing was installed.${tail ? ` npm said:\n${tail}` : ''}`,
  );
}
