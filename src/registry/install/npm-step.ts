// registry.install's npm path after consent: install (npm step), record, first start; answered
// within config.install.foregroundMs, else it goes on in the background (install/background.ts).
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { latestRunLines } from '../../proxy/child/server-log.js';
import { HubError, errorMessage, isHubError } from '../../core/errors.js';
import { serverDataFields } from './data-dir.js';
import type { InstallContext, Target } from './context.js';
import { finish, saveRecord } from './record.js';
import type { InstallResult } from './result.js';
import { inForeground } from './foreground.js';
import { explainNativeFailure, type AllowScripts, type SkippedScript } from '../npm/scripts.js';
import { formatCommandLine } from '../../core/shell-quote.js';
import { npmSettings } from '../npm/config.js';
import { installPackage } from '../npm/install.js';
import type { NpmSpec } from '../npm/spec.js';
import { anyScripts } from '../decisions/scripts-choice.js';

export interface NpmStepRequest {
  readonly target: Target;
  readonly spec: NpmSpec;
  readonly env: Record<string, string>;
  readonly start: boolean;
  readonly allowScripts: AllowScripts;
  /** The person agreed to drop the decisions kept for this name (kept-decisions.ts). */
  readonly dropKept?: boolean;
}

/** A start failure caused by a skipped native build says which package needs its scripts and the call that allows them. */
export async function explainStartFailure(
  error: unknown,
  skipped: readonly SkippedScript[],
  install: { package: string; name: string },
  logFile: string,
): Promise<unknown> {
  if (skipped.length === 0) return error;
  const explanation = explainNativeFailure(
    `${errorMessage(error)}\n${(await latestRunLines(logFile, 64 * 1024)).join('\n')}`,
    skipped,
    install,
  );
  if (!explanation) return error;
  return new HubError(isHubError(error) ? error.code : 'CHILD_FAILED', `${explanation} ${errorMessage(error)}`, {
    cause: error,
  });
}

export async function installFromNpmStep(request: NpmStepRequest, context: InstallContext): Promise<InstallResult> {
  const { target, spec, env, start, allowScripts, dropKept } = request;
  const { config, log } = context;
  const prefix = config.paths.serverDir(target.name);
  const logFile = config.paths.serverLog(target.name);
  // No record means a folder left here is debris of an interrupted install.
  await rm(prefix, { recursive: true, force: true });
  const firstStep = `npm: resolving ${spec.spec}`;
  // Runs with the caller's progress and cancel while it waits, without them once in the background.
  const run = async (running: InstallContext): Promise<InstallResult> => {
    const installed = await installPackage({
      spec: spec.spec,
      dir: prefix,
      allowScripts,
      log,
      settings: await npmSettings(running.npmEnv),
      env: running.npmEnv,
      timeoutMs: config.install.npmTimeoutMs,
      onLine: line => running.onNpmLine?.(line),
      onStep: (message, heartbeat) => running.progress?.(message, heartbeat),
      signal: running.signal,
    });
    running.progress?.(`installed ${spec.name}@${installed.version}`);
    // Its own data folder is its working directory too, so relative files never land in the package.
    // Made by this install (not kept from an earlier one): removed with it if it fails.
    const dataDir = config.paths.serverDataDir(target.name);
    const newData = !existsSync(dataDir);
    const data = await serverDataFields(config.paths.serverDataDir(target.name), target.dataEnv, env, target.args);
    const record = await saveRecord(
      running,
      {
        name: target.name,
        package: spec.name,
        version: installed.version,
        command: process.execPath,
        args: [installed.binPath, ...data.args],
        env: data.env,
        cwd: data.dataDir,
        mode: 'npm',
        dataDir: data.dataDir,
        ...(target.requiredEnv.length > 0 && { requiredEnv: [...target.requiredEnv] }),
        ...(target.allowScripts !== undefined && { allowScripts: target.allowScripts }),
      },
      dropKept === true,
    );
    const hint = config.install.allowScripts ? undefined : scriptsHint(target);
    let result: InstallResult;
    try {
      // fresh: a first start that fails removes the record it just wrote (nothing stays listed).
      result = await finish(record, target.requiredEnv, start, running, true);
    } catch (error) {
      // Not installed: the package folder goes, and the data folder when this install made it.
      await rm(prefix, { recursive: true, force: true });
      if (newData) await rm(dataDir, { recursive: true, force: true });
      const explained = await explainStartFailure(
        error,
        installed.skippedScripts,
        { package: spec.name, name: target.name },
        logFile,
      );
      if (!hint || !isHubError(explained) || explained !== error) throw explained;
      throw new HubError(explained.code, `${explained.message}\n${hint}`, { cause: explained.cause });
    }
    return {
      ...result,
      ...(hint && { next: `${result.next} ${hint}` }),
      skippedScripts: installed.skippedScripts,
      warnings: installed.warnings,
    };
  };
  return inForeground(
    {
      name: target.name,
      package: spec.spec,
      firstStep,
      run,
      shown: {
        package: spec.name,
        command: formatCommandLine(process.execPath, [`${prefix}/node_modules/${spec.name}/<its bin>`, ...target.args]),
        logFile,
      },
      next: (step, waited) =>
        `Still installing after ${waited} s (now: ${step}); it goes on in the background. registry.list { server: "${target.name}" } shows the step; tools/list_changed announces its tools when it is ready, then call them as usual.`,
    },
    context,
  );
}

// The catalog knows which servers need install scripts (native modules, browsers): say how to allow them.
function scriptsHint(target: Target): string | undefined {
  const needed = target.scripts ?? [];
  if (needed.length === 0 || anyScripts(target.allowScripts) || !target.spec) return undefined;
  return `This server needs the install scripts of ${needed.join(', ')}, which did not run: call registry.install { package: "${target.spec.name}", name: "${target.name}", allowScripts: ${JSON.stringify(needed)} } to allow them.`;
}
