// start_process: the record written first, then the keeper spawned and recorded.
import { mkdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { HubError } from '../../core/errors.js';
import { clip } from '../../core/clip.js';
import type { HubPaths } from '../../core/paths.js';
import type { ProcessRecord } from '../../store/schema.js';
import type { Store } from '../../store/store.js';
import { bootId, readProcessIdentity } from '../../core/process-identity.js';
import { newProcessId } from '../keeper/ids.js';
import { spawnKeeper } from '../keeper/keeper.js';
import { PROCESS_MARK_ENV } from './marked.js';
import { forgetRecord, reconcileAll } from './records.js';
import { resolveExecutable } from '../../core/executable.js';
import { firstProgramOfShellLine } from './resolve-command.js';
import { writeKeeperSpec } from '../keeper/spec.js';
import { checkPtyAvailable, ptyLine, type TtySize } from '../keeper/pty.js';
import { inputFifo, writeEnvFile } from '../keeper/run-files.js';
import { sandboxProbe } from '../../core/sandbox-probe.js';
import { processSandbox, sandboxedRun, sandboxHost, type ProcessSandboxAsk } from './sandbox.js';

export interface StartSpec {
  readonly command: string;
  readonly args?: readonly string[] | undefined;
  readonly cwd?: string | undefined;
  readonly env?: Readonly<Record<string, string>> | undefined;
  readonly name?: string | undefined;
  readonly tags?: readonly string[] | undefined;
  readonly ports?: readonly number[] | undefined;
  /** Run in a pseudo-terminal of this size. */
  readonly tty?: TtySize | undefined;
  readonly restart?: { readonly policy: 'no' | 'on-failure' | 'always'; readonly max: number } | undefined;
  /** Its wait_for, kept for restart_process (manager.ts sets it from the start's wait). */
  readonly ready?: ProcessRecord['ready'] | undefined;
  /** The call that starts it (ProcessRecord.startCall.call), when its session can name it. */
  readonly startCall?: string | undefined;
  /** Run in the project sandbox (sandbox.ts): writes only its project and temporary folders. */
  readonly sandbox?: ProcessSandboxAsk | undefined;
}

export interface StartContext {
  readonly paths: HubPaths;
  readonly store: Store;
  readonly maxRunning: number;
  /** The keeper holds the log under this size (0: no cap). */
  readonly logCapBytes: number;
  /** Hub's working directory and environment, which the process inherits. */
  readonly baseCwd: string;
  readonly baseEnv: NodeJS.ProcessEnv;
}

// The OS refuses a NUL byte in any path, argument or env entry, and paths past PATH_MAX; said
// here with the field's name rather than as a spawn or internal error.
const PATH_MAX = 4096;
function checkText(field: string, value: string): void {
  if (value.includes('\0'))
    throw new HubError(
      'INVALID_INPUT',
      `Field "${field}" contains a NUL byte, which no program can receive; remove it.`,
    );
}

function checkCwd(cwd: string): void {
  checkText('cwd', cwd);
  if (Buffer.byteLength(cwd) >= PATH_MAX)
    throw new HubError(
      'INVALID_INPUT',
      `Field "cwd" is ${Buffer.byteLength(cwd)} bytes long, past the system's path limit (${PATH_MAX}); pass a shorter path.`,
    );
  let info;
  try {
    info = statSync(cwd, { throwIfNoEntry: false });
  } catch (error) {
    throw new HubError(
      'INVALID_INPUT',
      `Field "cwd": the directory "${clip(cwd)}" cannot be used (${(error as NodeJS.ErrnoException).code ?? 'error'}). Pass an existing directory, or omit cwd.`,
      { cause: error },
    );
  }
  if (!info?.isDirectory()) {
    throw new HubError(
      'INVALID_INPUT',
      `Field "cwd": the directory "${clip(cwd)}" does not exist${info ? ' (it is a file)' : ''}. Pass an existing directory, or omit cwd to use hub's working directory.`,
    );
  }
}

function checkSpecText(spec: StartSpec): void {
  checkText('command', spec.command);
  spec.args?.forEach((arg, index) => checkText(`args[${index}]`, arg));
  for (const [key, value] of Object.entries(spec.env ?? {})) {
    checkText(`env.${clip(key)}`, key);
    checkText(`env.${clip(key)}`, value);
  }
}

function checkCommand(spec: StartSpec, cwd: string, pathValue: string | undefined): void {
  const program = spec.args === undefined ? firstProgramOfShellLine(spec.command) : spec.command;
  if (program === undefined || resolveExecutable(program, pathValue, cwd) !== undefined) return;
  throw new HubError(
    'SPAWN_FAILED',
    `Field "command": "${clip(program)}" was not found on PATH or is not executable (cwd "${clip(cwd)}"). Check the spelling, install it, or give its full path.`,
  );
}

// The record is written first (under the store lock, so the name and limit checks hold across
// hubs), marked startingBy this hub; then the keeper is spawned, then its pid recorded. A hub
// killed at any moment leaves a record: either startingBy a dead hub (settled as failed, or
// attached to its keeper found in /proc by id) or complete. Nothing is spawned for invalid input.
export async function startProcess(context: StartContext, spec: StartSpec): Promise<ProcessRecord> {
  checkSpecText(spec);
  const cwd = resolve(context.baseCwd, spec.cwd ?? '.');
  checkCwd(cwd);
  checkCommand(spec, cwd, spec.env?.PATH ?? context.baseEnv.PATH);
  if (spec.tty) checkPtyAvailable(context.baseEnv.PATH, cwd);
  const sandbox =
    spec.sandbox && processSandbox(spec.sandbox, cwd, context.paths, sandboxHost(context.baseEnv, spec.env ?? {}));
  if (sandbox) {
    // Never unsandboxed unnoticed: asked for and not possible here is an error, with why.
    const found = await sandboxProbe();
    if (found.kind === 'none')
      throw new HubError(
        'SPAWN_FAILED',
        `Field "sandbox": no sandbox can run here (${found.why}); or start without sandbox.`,
      );
  }
  mkdirSync(context.paths.processLogsDir, { recursive: true, mode: 0o700 });
  const self = readProcessIdentity(process.pid);
  const intent = await context.store.update(data => {
    reconcileAll(data, context.paths);
    const running = Object.values(data.processes).filter(record => record.status === 'running');
    if (spec.name !== undefined && running.some(record => record.name === spec.name)) {
      throw new HubError(
        'ALREADY_EXISTS',
        `Field "name": a running process is already named "${clip(spec.name)}". Pick another name, or kill_process "${clip(spec.name)}" first.`,
      );
    }
    if (running.length >= context.maxRunning) {
      throw new HubError(
        'LIMIT',
        `${running.length} processes are running, the limit is ${context.maxRunning}. Stop some with kill_process (list_processes shows them).`,
      );
    }
    let id = newProcessId();
    while (data.processes[id]) id = newProcessId();
    const record: ProcessRecord = {
      id,
      ...(spec.name !== undefined && { name: spec.name }),
      command: spec.command,
      ...(spec.args !== undefined && { args: [...spec.args] }),
      cwd,
      envKeys: Object.keys(spec.env ?? {}).sort(),
      tags: [...(spec.tags ?? [])],
      ports: [...(spec.ports ?? [])],
      pid: 0,
      status: 'running',
      startedAt: new Date().toISOString(),
      logFile: context.paths.processLog(id),
      startingBy: { pid: process.pid, startTicks: self?.startTicks ?? 0 },
      ...(spec.tty && { tty: { cols: spec.tty.cols, rows: spec.tty.rows } }),
      ...(spec.restart && spec.restart.policy !== 'no' && { restart: { ...spec.restart } }),
      ...(spec.ready && { ready: { ...spec.ready } }),
      ...(sandbox && { sandbox }),
      ...(spec.startCall !== undefined && {
        startCall: { call: spec.startCall, hub: `${process.pid}@${self?.startTicks ?? 0}` },
      }),
    };
    data.processes[id] = record;
    return record;
  });
  let keeper: KeeperIdentity;
  try {
    writeEnvFile(context.paths, intent.id, spec.env ?? {});
    keeper = launchKeeper(context, intent, spec.env ?? {});
  } catch (error) {
    await context.store.update(data => forgetRecord(data, context.paths, intent.id)).catch(() => undefined);
    throw error;
  }
  return context.store.update(data => {
    const stored = data.processes[intent.id];
    // Another hub may have attached the keeper already (found in /proc): same values.
    const { startingBy: _startingBy, ...rest } = stored ?? intent;
    const record: ProcessRecord = { ...rest, ...keeper };
    data.processes[intent.id] = record;
    return record;
  });
}

export interface KeeperIdentity {
  readonly pid: number;
  readonly pgid: number;
  readonly startTicks: number;
  readonly bootId: string;
}

/** Spawns the keeper of a record (a start, or a restart of an ended one) and names it. */
export function launchKeeper(
  context: Pick<StartContext, 'paths' | 'logCapBytes' | 'baseEnv'>,
  record: ProcessRecord,
  env: Readonly<Record<string, string>>,
): KeeperIdentity {
  // A terminal type the screen renderer (xterm) understands, unless the caller chose one.
  const runEnv = record.tty && env.TERM === undefined ? { ...env, TERM: 'xterm-256color' } : env;
  writeKeeperSpec(context.paths, record);
  // Sandboxed, the keeper runs bwrap with the command inside: same group, same kill and restart.
  const run = record.sandbox
    ? sandboxedRun(record, record.sandbox, context.paths, sandboxHost(context.baseEnv, runEnv))
    : { command: record.command, args: record.args };
  const pid = spawnKeeper({
    command: run.command,
    args: run.args,
    cwd: record.cwd,
    // Last, so a caller's env cannot unset it: how kill_process finds what left the session.
    env: { ...runEnv, [PROCESS_MARK_ENV]: record.id },
    logFile: record.logFile,
    exitFile: context.paths.processExitFile(record.id),
    logCapBytes: context.logCapBytes,
    inputFile: inputFifo(context.paths, record.id),
    ptyLine: record.tty && ptyLine(run.command, run.args, { ...context.baseEnv, ...runEnv }, record.tty),
    restart: record.restart,
    runs: record.restarts ?? 0,
  });
  const identity = readProcessIdentity(pid);
  return { pid, pgid: pid, startTicks: identity?.startTicks ?? 0, bootId: bootId() };
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
