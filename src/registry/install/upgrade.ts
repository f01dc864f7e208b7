// registry.install { upgrade: true } and `hub upgrade <name>`: a new version of an installed npm
import { audited, withAskedOnRecord } from './audit.js';
// server, installed beside the old one and swapped in, keeping the record's env, args, install
// scripts choice and data folder; a new version that does not start is rolled back.
import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { HubError, errorMessage, isHubError } from '../../core/errors.js';
import type { ServerRecord } from '../../store/schema.js';
import { readInstalledPackage } from '../npm/bin.js';
import { adoptDataDir, expandDataArgs } from './data-dir.js';
import type { InstallContext, InstallRequest, Target } from './context.js';
import { finish } from './record.js';
import type { InstallResult } from './result.js';
import { formatCommandLine } from '../../core/shell-quote.js';
import { npmSettings } from '../npm/config.js';
import { inForeground } from './foreground.js';
import { installPackage, npmInstallLine } from '../npm/install.js';
import { parseNpmSpec } from '../npm/spec.js';
import type { ScriptsChoice } from '../decisions/scripts-choice.js';
import { currentResult, nothingToUpgrade } from './upgrade-current.js';
import { versionMatches } from './version-match.js';

export interface UpgradeOptions {
  /** Version or tag to install (default "latest"). */
  readonly range?: string | undefined;
  /** Merged over the record's env. */
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** Replace the server's args (default: keep them). */
  readonly args?: readonly string[] | undefined;
  /** Replace the install scripts choice (default: the record's). */
  readonly allowScripts?: ScriptsChoice | undefined;
  readonly start?: boolean | undefined;
}

const sameScripts = (a: ScriptsChoice | undefined, b: ScriptsChoice | undefined): boolean =>
  JSON.stringify(a ?? false) === JSON.stringify(b ?? false);

/**
 * registry.install on a server installed from the same package: an upgrade when asked (upgrade: true,
 * or other install scripts, which need a fresh npm run); a hint when only the version differs;
 * undefined when it is a plain reconfigure.
 */
export async function existingInstall(
  existing: ServerRecord,
  target: Target,
  request: InstallRequest,
  env: Record<string, string>,
  context: InstallContext,
): Promise<InstallResult | undefined> {
  const samePackage = target.spec !== undefined && existing.mode === 'npm' && existing.package === target.spec.name;
  if (!samePackage) {
    if (request.upgrade && existing.mode === 'command') throw commandUpgrade(existing.name);
    return undefined;
  }
  const range = target.spec?.range;
  const scriptsChanged =
    request.allowScripts !== undefined && !sameScripts(request.allowScripts, existing.allowScripts);
  if (request.upgrade || scriptsChanged) {
    return upgradeServer(context, existing.name, {
      // Only new scripts asked: reinstall the same version with them.
      range: range ?? (request.upgrade ? undefined : existing.version),
      env,
      args: request.args,
      allowScripts: request.allowScripts,
      start: request.start,
    });
  }
  if (!versionMatches(existing.version, range)) {
    const spec = target.spec?.spec ?? '';
    throw new HubError(
      'ALREADY_EXISTS',
      `Server "${existing.name}" already runs ${existing.package ?? ''}@${existing.version ?? '?'}; to replace it with ${spec}, call registry.install { package: "${spec}", name: "${existing.name}", upgrade: true } (in a terminal: \`hub-mcp upgrade ${existing.name}\`). Its env, args and data are kept.`,
    );
  }
  return undefined;
}

const commandUpgrade = (name: string) =>
  new HubError(
    'INVALID_INPUT',
    `Server "${name}" is a registered command, not an npm install, so hub cannot upgrade it: update the program yourself, then call registry.install again with the same command to restart it.`,
  );

/** Installs another version of an installed npm server and swaps it in; exported for `hub upgrade <name>`. */
export function upgradeServer(
  context: InstallContext,
  name: string,
  options: UpgradeOptions = {},
): Promise<InstallResult> {
  return audited(
    context.config.paths,
    { kind: 'upgrade', server: name },
    () => upgradeOnce(withAskedOnRecord(context), name, options),
    result => ({ package: result.package, version: result.version }),
  );
}

async function upgradeOnce(context: InstallContext, name: string, options: UpgradeOptions): Promise<InstallResult> {
  const { config, store, manager, log } = context;
  const record = (await store.read()).servers[name];
  if (!record)
    throw new HubError(
      'NOT_FOUND',
      `No server named "${name}" is installed; registry.list shows the installed servers.`,
    );
  if (record.mode !== 'npm' || record.package === undefined) throw commandUpgrade(name);
  const packageName = record.package;
  const spec = parseNpmSpec(`${record.package}@${options.range ?? 'latest'}`);
  const scripts = options.allowScripts ?? record.allowScripts;
  const allowScripts = scripts ?? config.install.allowScripts;
  const prefix = config.paths.serverDir(name);
  const staging = `${prefix}.upgrade`;
  const previous = `${prefix}.previous`;
  const hints = context.lookup?.(record.package);
  const dataDir = record.dataDir ?? config.paths.serverDataDir(name);
  const tail = options.args ? expandDataArgs(options.args, dataDir) : record.args.slice(1);
  await context.confirm({
    name,
    package: spec.spec,
    installLine: npmInstallLine(staging, spec.spec, allowScripts),
    launchLine: formatCommandLine(record.command, [`${prefix}/node_modules/${record.package}/<its bin>`, ...tail]),
    scripts: scripts || undefined,
    upgradeFrom: `${record.package}@${record.version ?? '?'}`,
  });
  const firstStep = `npm: installing ${spec.spec} beside ${record.version ?? 'the installed version'}`;
  // Runs with the caller's progress and cancel while it waits, without them once in the background.
  const run = async (running: InstallContext): Promise<InstallResult> => {
    // The running version stays untouched until the new one is installed beside it.
    await rm(staging, { recursive: true, force: true });
    running.progress?.(firstStep);
    await installPackage({
      dir: staging,
      spec: spec.spec,
      allowScripts,
      log,
      settings: await npmSettings(running.npmEnv),
      env: running.npmEnv,
      timeoutMs: config.install.npmTimeoutMs,
      onLine: line => running.onNpmLine?.(line),
      onStep: (message, heartbeat) => running.progress?.(message, heartbeat),
      signal: running.signal,
    });
    let fresh;
    try {
      fresh = await readInstalledPackage(staging, packageName);
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw error;
    }
    if (nothingToUpgrade(record, fresh.version, options)) {
      await rm(staging, { recursive: true, force: true });
      running.progress?.(`${packageName}@${fresh.version} is already the latest version`);
      return currentResult(record, running);
    }
    await manager.stop(name);
    // Data a record from before data folders kept inside the package moves out before the swap.
    let env = { ...record.env, ...options.env };
    let args = tail;
    if (record.dataDir === undefined) {
      const adopted = await adoptDataDir({
        packageFolder: join(prefix, 'node_modules', packageName),
        cwd: record.cwd ?? prefix,
        folder: dataDir,
        dataEnv: hints?.dataEnv,
        env,
        args,
      });
      ({ env, args } = adopted);
      if (adopted.copied.length > 0)
        log.info({ server: name, copied: adopted.copied }, 'copied data out of the package folder');
    }
    await rm(previous, { recursive: true, force: true });
    if (existsSync(prefix)) await rename(prefix, previous);
    await rename(staging, prefix);
    const installed = await readInstalledPackage(prefix, packageName);
    const updated = await store.update(data => {
      const current = data.servers[name];
      if (!current)
        throw new HubError('NOT_FOUND', `Server "${name}" was uninstalled meanwhile; call registry.install again.`);
      current.version = installed.version;
      current.args = [installed.binPath, ...args];
      current.env = env;
      current.dataDir = dataDir;
      current.cwd = dataDir;
      if (scripts !== undefined) current.allowScripts = scripts;
      return { ...current };
    });
    running.progress?.(`upgraded ${name}: ${record.version ?? '?'} → ${installed.version}`);
    try {
      const result = await finish(
        updated,
        updated.requiredEnv ?? hints?.requiredEnv ?? [],
        options.start !== false,
        context,
      );
      await rm(previous, { recursive: true, force: true });
      return result;
    } catch (error) {
      await rollBack(context, record, prefix, previous);
      throw new HubError(
        isHubError(error) ? error.code : 'CHILD_FAILED',
        `Upgrade of "${name}" to ${packageName}@${installed.version} did not start, so ${record.version ?? 'the previous version'} was put back with its settings. ${errorMessage(isHubError(error) && error.cause !== undefined ? error.cause : error)}`,
        { cause: error },
      );
    }
  };
  return inForeground(
    {
      name,
      package: spec.spec,
      firstStep,
      run,
      shown: {
        package: packageName,
        ...(record.version !== undefined && { version: record.version }),
        command: formatCommandLine(record.command, record.args),
        logFile: config.paths.serverLog(name),
      },
      next: (step, waited) =>
        `Still upgrading after ${waited} s (now: ${step}); it goes on in the background and ${record.version ?? 'the installed version'} keeps serving until the new version is ready. registry.list { server: "${name}" } shows the step; tools/list_changed announces the new tools.`,
    },
    context,
  );
}

// The new version failed to start: the old folder and the old record come back, unstarted.
async function rollBack(
  context: InstallContext,
  record: ServerRecord,
  prefix: string,
  previous: string,
): Promise<void> {
  await context.manager.stop(record.name).catch(() => undefined);
  if (!existsSync(previous)) return;
  await rm(prefix, { recursive: true, force: true });
  await rename(previous, prefix);
  await context.store.update(data => {
    const current = data.servers[record.name];
    if (!current) return;
    current.version = record.version;
    current.args = record.args;
    current.env = record.env;
    if (record.cwd === undefined) delete current.cwd;
    else current.cwd = record.cwd;
    if (record.allowScripts === undefined) delete current.allowScripts;
    else current.allowScripts = record.allowScripts;
  });
  await context.manager.reload();
}
