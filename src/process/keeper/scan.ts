// Keepers of this HUB_HOME found running even when no record says so, by their argv.
import { basename, dirname } from 'node:path';
import type { HubPaths } from '../../core/paths.js';
import { platform } from '../../core/platform/platform.js';
import { readProcessIdentity } from '../../core/process-identity.js';
import { ID_PATTERN } from './ids.js';
import { KEEPER_ARGV, KEEPER_NAME } from './keeper.js';
import { findKeepersByCommand, type FoundKeeper } from './spec.js';

export type { FoundKeeper } from './spec.js';

// Keepers found in /proc rather than in the store: a keeper's argv names its exit file
// (`/bin/sh -c <script> hub-keeper <HUB_HOME>/logs/processes/<id>.exit <mode> <log> <cap> <node> <cutter> <command> ...`),
// so a hub can find every keeper of its HUB_HOME and its id even when no record says so (a hub
// killed between spawn and write, a store that lost records). On Linux from /proc (no subprocess);
// elsewhere from one ps listing and the keeper's spec file (keeper/spec.ts).
const exact = () => platform().processes.exact;
function readSettings(pid: number): Pick<FoundKeeper, 'tty' | 'restart'> {
  const environ = exact()?.environ(pid);
  if (environ === undefined) return { tty: undefined, restart: undefined };
  const value = (key: string) => environ.find(entry => entry.startsWith(`${key}=`))?.slice(key.length + 1);
  const size = /^stty cols (\d+) rows (\d+)/.exec(value('HUB_KEEPER_PTY') ?? '');
  const policy = value('HUB_KEEPER_RESTART');
  return {
    tty: size ? { cols: Number(size[1]), rows: Number(size[2]) } : undefined,
    restart:
      policy === 'on-failure' || policy === 'always'
        ? { policy, max: Number(value('HUB_KEEPER_MAX')) || 0 }
        : undefined,
  };
}

const readArgv = (pid: number): string[] | undefined => exact()?.argv(pid);

const readCwd = (pid: number): string | undefined => exact()?.cwd(pid);

function keeperAt(pid: number, paths: HubPaths): FoundKeeper | undefined {
  const identity = readProcessIdentity(pid);
  // A keeper leads its own group; its forked children (before they exec) share its argv, not its pgid.
  if (!identity || identity.pgid !== pid || identity.state === 'Z' || identity.state === 'X') return undefined;
  const argv = readArgv(pid);
  if (!argv || argv[1] !== '-c' || argv[KEEPER_ARGV.name] !== KEEPER_NAME) return undefined;
  const exitFile = argv[KEEPER_ARGV.exitFile] ?? '';
  const id = basename(exitFile, '.exit');
  if (dirname(exitFile) !== paths.processLogsDir || !ID_PATTERN.test(id) || exitFile !== paths.processExitFile(id))
    return undefined;
  const mode = argv[KEEPER_ARGV.mode] === 'argv' ? 'argv' : 'shell';
  const command = argv[KEEPER_ARGV.command] ?? '';
  return {
    id,
    pid,
    startTicks: identity.startTicks,
    mode,
    command,
    args: mode === 'argv' ? argv.slice(KEEPER_ARGV.command + 1) : undefined,
    cwd: readCwd(pid),
    ...readSettings(pid),
  };
}

/** Every live keeper whose exit file lies in this HUB_HOME, by id. */
export function findKeepers(paths: HubPaths): Map<string, FoundKeeper> {
  if (exact() === undefined) return findKeepersByCommand(paths);
  const found = new Map<string, FoundKeeper>();
  for (const { pid } of platform().processes.processes()) {
    if (pid <= 1) continue;
    const keeper = keeperAt(pid, paths);
    if (keeper) found.set(keeper.id, keeper);
  }
  return found;
}
