import { mkdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { HubError } from '../errors.js';
import type { HubPaths } from '../paths.js';
import type { ProcessRecord } from '../store/schema.js';
import type { Store } from '../store/store.js';
import { bootId, readProcessIdentity } from './identity.js';
import { newProcessId } from './ids.js';
import { prepareKeeper, spawnKeeper } from './keeper.js';
import { reconcileAll } from './records.js';
import { resolveExecutable } from '../executable.js';
import { firstProgramOfShellLine } from './resolve-command.js';

export interface StartSpec {
  readonly command: string;
  readonly args?: readonly string[] | undefined;
  readonly cwd?: string | undefined;
  readonly env?: Readonly<Record<string, string>> | undefined;
  readonly name?: string | undefined;
  readonly tags?: readonly string[] | undefined;
  readonly ports?: readonly number[] | undefined;
}

export interface StartContext {
  readonly paths: HubPaths;
  readonly store: Store;
  readonly maxRunning: number;
  /** Hub's working directory and environment, which the process inherits. */
  readonly baseCwd: string;
  readonly baseEnv: NodeJS.ProcessEnv;
}

function checkCwd(cwd: string): void {
  const info = statSync(cwd, { throwIfNoEntry: false });
  if (!info?.isDirectory()) {
    throw new HubError('INVALID_INPUT', `Field "cwd": the directory "${cwd}" does not exist${info ? ' (it is a file)' : ''}. Pass an existing directory, or omit cwd to use hub's working directory.`);
  }
}

function checkCommand(spec: StartSpec, cwd: string, pathValue: string | undefined): void {
  const program = spec.args === undefined ? firstProgramOfShellLine(spec.command) : spec.command;
  if (program === undefined || resolveExecutable(program, pathValue, cwd) !== undefined) return;
  throw new HubError('SPAWN_FAILED', `Field "command": "${program}" was not found on PATH or is not executable (cwd "${cwd}"). Check the spelling, install it, or give its full path.`);
}

// Validates, then (under the store lock, so the name and limit checks hold across hubs) starts
// the keeper and records it. Nothing is spawned for invalid input.
export async function startProcess(context: StartContext, spec: StartSpec): Promise<ProcessRecord> {
  const cwd = resolve(context.baseCwd, spec.cwd ?? '.');
  checkCwd(cwd);
  checkCommand(spec, cwd, spec.env?.PATH ?? context.baseEnv.PATH);
  mkdirSync(context.paths.processLogsDir, { recursive: true, mode: 0o700 });
  await prepareKeeper();
  return context.store.update(data => {
    reconcileAll(data, context.paths);
    const running = Object.values(data.processes).filter(record => record.status === 'running');
    if (spec.name !== undefined && running.some(record => record.name === spec.name)) {
      throw new HubError('ALREADY_EXISTS', `Field "name": a running process is already named "${spec.name}". Pick another name, or kill_process "${spec.name}" first.`);
    }
    if (running.length >= context.maxRunning) {
      throw new HubError('LIMIT', `${running.length} processes are running, the limit is ${context.maxRunning}. Stop some with kill_process (list_processes shows them).`);
    }
    let id = newProcessId();
    while (data.processes[id]) id = newProcessId();
    const logFile = context.paths.processLog(id);
    const pid = spawnKeeper({ command: spec.command, args: spec.args, cwd, env: spec.env ?? {}, logFile, exitFile: context.paths.processExitFile(id) });
    const identity = readProcessIdentity(pid);
    const record: ProcessRecord = {
      id,
      ...(spec.name !== undefined && { name: spec.name }),
      command: spec.command,
      ...(spec.args !== undefined && { args: [...spec.args] }),
      cwd,
      envKeys: Object.keys(spec.env ?? {}).sort(),
      tags: [...(spec.tags ?? [])],
      ports: [...(spec.ports ?? [])],
      pid,
      pgid: pid,
      startTicks: identity?.startTicks ?? 0,
      bootId: bootId(),
      status: 'running',
      startedAt: new Date().toISOString(),
      logFile,
    };
    data.processes[id] = record;
    return record;
  });
}

/** Marks a record failed (it could not start: the shell reported the command missing). */
export async function markFailed(store: Store, id: string, error: string): Promise<ProcessRecord | undefined> {
  return store.update(data => {
    const record = data.processes[id];
    if (!record) return undefined;
    data.processes[id] = { ...record, status: 'failed', error };
    return data.processes[id];
  });
}

/** Polls briefly for an early exit of a just-started process; its record when it ended. */
export async function settleBriefly(isRunning: () => boolean, windowMs: number): Promise<boolean> {
  const until = Date.now() + windowMs;
  while (Date.now() < until) {
    if (!isRunning()) return true;
    await sleep(20);
  }
  return !isRunning();
}
