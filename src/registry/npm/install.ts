// The npm step of registry.install: `npm install` run inside the server's own folder (which has
// its own package.json) so npm reads the user's whole configuration: global, user and project
// npmrc (`--prefix` would move the global one to <folder>/etc/npmrc and lose a company CA).
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { HubError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { readInstalledPackage } from './bin.js';
import { formatCommandLine } from '../../core/shell-quote.js';
import { allowedNames, findInstallScripts, type AllowScripts, type SkippedScript } from './scripts.js';
import type { NpmSettings } from './config.js';
import { createNpmOutputReader, describeStep, type NpmStep } from './output.js';
import { parseNpmSpec } from './spec.js';
import { nodeHeadersEnv } from './node-headers.js';

export interface InstallPackageOptions {
  readonly spec: string;
  /** The server's install folder; created with its own package.json. */
  readonly dir: string;
  /** Which packages may run their install scripts (default none). */
  readonly allowScripts?: AllowScripts | undefined;
  readonly log: Logger;
  /** npm's settings, to use npm's own script approvals (package.json "allowScripts") when it has them. */
  readonly settings?: NpmSettings | undefined;
  /** Each raw line npm writes (stdout and stderr), for a person watching a terminal. */
  readonly onLine?: ((line: string) => void) | undefined;
  /** A few short step messages ("resolving", "fetching N packages", "linking", "building"); heartbeat = elapsed-time refresh. */
  readonly onStep?: ((message: string, heartbeat: boolean) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly timeoutMs?: number | undefined;
  /** The whole environment npm runs with (registry/npm/env.ts); undefined: hub's own. */
  readonly env?: Readonly<Record<string, string>> | undefined;
}

export interface InstallPackageResult {
  readonly version: string;
  readonly binPath: string;
  /** Packages with install scripts that did not run (not allowed). */
  readonly skippedScripts: SkippedScript[];
  /** Packages whose install scripts ran because they were allowed. */
  readonly builtScripts: string[];
  /** npm's warnings (unsupported engine, peer-dependency overrides, deprecations). */
  readonly warnings: string[];
}

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
const ERROR_TAIL_LINES = 12;
const STEP_EVERY_MS = 500;
const QUIET_MS = 1_500;

/** The exact argv hub runs in the install folder (never through a shell); `--` keeps the spec from being read as an option. */
/** The install as the consent prompt shows it: npm inside dir, then the allowed packages' scripts. */
export function npmInstallLine(dir: string, spec: string, allowScripts: AllowScripts): string {
  const rebuild =
    allowScripts === true
      ? '<every package with install scripts>'
      : allowScripts === false
        ? ''
        : allowScripts.join(' ');
  return `cd ${formatCommandLine(dir, [])} && ${formatCommandLine('npm', npmInstallArgs(spec))}${rebuild ? ` && npm rebuild ${rebuild}` : ''}`;
}

export function npmInstallArgs(spec: string): string[] {
  return [
    'install',
    // Scripts run afterwards, only for allowed packages (npm rebuild <names>).
    '--ignore-scripts',
    '--no-audit',
    '--no-fund',
    '--omit=dev',
    '--no-progress',
    '--no-update-notifier',
    // http level prints one line per fetch: what the steps are read from.
    '--loglevel=http',
    '--',
    spec,
  ];
}

// npm's own error lines are what a person needs; the http fetch lines are noise there.
// npm's advice on a 404 ("you can also install from a tarball, folder, http url, or git url"):
// hub refuses those specs (npm-spec.ts), so passing it on would send the person the wrong way.
const REFUSED_ADVICE =
  /Note that you can also install from a\s*$|^npm (error|ERR!) 404\s+tarball, folder, http url, or git url\.?\s*$/;

function errorTail(lines: readonly string[]): string {
  const useful = lines.filter(
    line =>
      line.trim() !== '' &&
      !/^npm (http|verbose|timing|info|notice)\b/.test(line) &&
      !REFUSED_ADVICE.test(line) &&
      !/^npm (error|ERR!) 404\s*$/.test(line),
  );
  return useful.slice(-ERROR_TAIL_LINES).join('\n');
}

interface NpmRun {
  readonly failed: boolean;
  readonly why: string;
  readonly cancelled: boolean;
  readonly lines: string[];
}

type RunOptions = Pick<InstallPackageOptions, 'timeoutMs' | 'signal' | 'onLine' | 'env'> & {
  readonly settings?: { readonly nodedir?: string | undefined } | undefined;
};

async function runNpm(args: string[], cwd: string, options: RunOptions, each: (line: string) => void): Promise<NpmRun> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const lines: string[] = [];
  // Loaded on first use: hub's start path does not need execa.
  const { execa } = await import('execa');
  const headers = nodeHeadersEnv(options.env ?? process.env, options.settings?.nodedir);
  const subprocess = execa('npm', args, {
    cwd,
    all: true,
    reject: false,
    stdin: 'ignore',
    timeout: timeoutMs,
    forceKillAfterDelay: 2_000,
    // The asking session's npm variables, never the hub process's (another client's).
    ...(options.env ? { env: { ...options.env, ...headers }, extendEnv: false } : { env: headers }),
    ...(options.signal && { cancelSignal: options.signal }),
  });
  try {
    for await (const line of subprocess.iterable({ from: 'all' })) {
      lines.push(line);
      if (lines.length > 400) lines.splice(0, 200);
      options.onLine?.(line);
      each(line);
    }
  } catch {
    // The result below says why the stream ended.
  }
  const result = await subprocess;
  const why = result.isCanceled
    ? 'it was cancelled by the caller'
    : result.timedOut
      ? `it did not finish within ${Math.round(timeoutMs / 1000)} s (a slow build may need more: raise install.npmTimeoutMs in config.json)`
      : (result as { code?: string }).code === 'ENOENT'
        ? 'npm was not found on PATH (install Node.js with npm, or register the server with "command")'
        : `npm exited with code ${String(result.exitCode)}`;
  return { failed: result.failed, why, cancelled: result.isCanceled, lines };
}

// Steps as they change, count updates at most every STEP_EVERY_MS, and an elapsed-time heartbeat each second.
function stepReporter(spec: string, onStep: InstallPackageOptions['onStep']) {
  const reader = createNpmOutputReader();
  const started = Date.now();
  let current = `npm: resolving ${spec}`;
  let lastKind: NpmStep['kind'] | undefined;
  let lastSent = 0;
  let lastLine = Date.now();
  const send = (message: string, heartbeat: boolean) => {
    lastSent = Date.now();
    onStep?.(message, heartbeat);
  };
  const apply = (step: NpmStep | undefined) => {
    if (!step) return;
    current = describeStep(step, spec);
    if (step.kind !== lastKind || Date.now() - lastSent >= STEP_EVERY_MS) send(current, step.kind === lastKind);
    lastKind = step.kind;
  };
  const timer = setInterval(() => {
    if (Date.now() - lastLine >= QUIET_MS) apply(reader.quiet());
    if (Date.now() - lastSent >= 1_000) send(`${current} — ${Math.round((Date.now() - started) / 1000)} s`, true);
  }, 500);
  timer.unref();
  send(current, false);
  return {
    reader,
    line(text: string) {
      lastLine = Date.now();
      apply(reader.line(text));
    },
    say: (message: string) => {
      current = message;
      send(message, false);
    },
    stop: () => clearInterval(timer),
  };
}

async function failed(dir: string, spec: string, run: NpmRun, what: string, log: Logger): Promise<never> {
  await rm(dir, { recursive: true, force: true });
  const tail = errorTail(run.lines);
  log.warn({ spec, why: run.why, tail }, `${what} failed`);
  throw new HubError(
    run.cancelled ? 'CANCELLED' : 'INSTALL_FAILED',
    `${what} of "${spec}" failed: ${run.why}; nothing was installed.${tail ? ` npm said:\n${tail}` : ''}`,
  );
}

async function removeOnFailure<T>(dir: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Installs spec into dir (own package.json, no --prefix), without install scripts; then builds the
 * allowed packages only (`npm rebuild <names>`, recorded as npm's own approvals when npm has them).
 * On any failure dir is removed and INSTALL_FAILED (or CANCELLED) thrown.
 */
export async function installPackage(options: InstallPackageOptions): Promise<InstallPackageResult> {
  const { dir, spec, log } = options;
  const { name } = parseNpmSpec(spec);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // The folder is a project of its own: npm installs here and reads this folder's npmrc as project config.
  await writeFile(
    `${dir}/package.json`,
    `${JSON.stringify({ name: `hub-server-${basename(dir)}`, private: true, description: 'Install folder of an MCP server installed by hub' }, null, 2)}\n`,
  );
  const args = npmInstallArgs(spec);
  log.info({ spec, dir, args }, 'npm install');
  const steps = stepReporter(spec, options.onStep);
  try {
    const run = await runNpm(args, dir, options, line => steps.line(line));
    if (run.failed) return await failed(dir, spec, run, 'npm install', log);
    let installed;
    try {
      installed = await readInstalledPackage(dir, name);
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
    const scripts = await removeOnFailure(
      dir,
      buildAllowedScripts(
        { ...options, onStep: (message, heartbeat) => (heartbeat ? undefined : steps.say(message)) },
        steps.line,
      ),
    );
    return { version: installed.version, binPath: installed.binPath, ...scripts, warnings: [...steps.reader.warnings] };
  } finally {
    steps.stop();
  }
}

export interface BuiltScripts {
  readonly skippedScripts: SkippedScript[];
  readonly builtScripts: string[];
}

/**
 * Runs the install scripts of the allowed packages already in dir (`npm rebuild <names>`); also
 * used when allowScripts is given for a server installed earlier. npm 11 gets the approvals
 * recorded its own way first (`npm install-scripts approve`, pinned to the installed version).
 */
export async function buildAllowedScripts(
  options: Omit<InstallPackageOptions, 'spec'> & { readonly spec?: string },
  each: (line: string) => void = () => undefined,
): Promise<BuiltScripts> {
  const { dir, log } = options;
  const spec = options.spec ?? basename(dir);
  const found = await findInstallScripts(dir);
  const allowed = allowedNames(found, options.allowScripts ?? false);
  if (allowed.length > 0) {
    options.onStep?.(`npm: running install scripts of ${allowed.join(', ')}`, false);
    if (options.settings?.hasAllowScripts) {
      const approve = await runNpm(
        ['install-scripts', 'approve', '--no-update-notifier', ...allowed],
        dir,
        options,
        () => undefined,
      );
      if (approve.failed)
        log.warn({ spec, why: approve.why, tail: errorTail(approve.lines) }, 'npm install-scripts approve failed');
    }
    const rebuild = await runNpm(
      ['rebuild', '--no-update-notifier', '--foreground-scripts', ...allowed],
      dir,
      options,
      each,
    );
    if (rebuild.failed) {
      const tail = errorTail(rebuild.lines);
      log.warn({ spec, why: rebuild.why, tail }, 'npm rebuild failed');
      throw new HubError(
        rebuild.cancelled ? 'CANCELLED' : 'INSTALL_FAILED',
        `The install scripts of ${allowed.join(', ')} (npm rebuild in ${dir}) failed: ${rebuild.why}.${tail ? ` npm said:\n${tail}` : ''}`,
      );
    }
  }
  return { skippedScripts: found.filter(entry => !allowed.includes(entry.name)), builtScripts: allowed };
}
