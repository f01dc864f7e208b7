// A keeper's spec file, so a hub without /proc can find keepers and read back what they run.
import { readFileSync, writeFileSync } from 'node:fs';
import type { HubPaths } from '../../core/paths.js';
import { platform } from '../../core/platform/platform.js';
import type { ProcessRecord } from '../../store/schema.js';
import { ID_PATTERN } from './ids.js';
import { KEEPER_NAME } from './keeper.js';
import { keeperSpecFile } from './run-files.js';

// Keepers found without /proc (macOS; Linux with HUB_PLATFORM=portable): ps prints a keeper's argv
// joined by spaces (its multi-line script garbled), which is enough to find
// ` hub-keeper <HUB_HOME>/logs/processes/<id>.exit ` but not to read its command, args, cwd and
// environment back exactly. Those come from the keeper's spec file, written before the keeper is
// spawned (0600 beside its exit file, removed with the record), so a hub killed between spawn and
// record still leaves all a later hub needs.

// A keeper found running, by /proc (keeper/scan.ts) or by ps and its spec file (here).
export interface FoundKeeper {
  readonly id: string;
  readonly pid: number;
  readonly startTicks: number;
  readonly mode: 'shell' | 'argv';
  readonly command: string;
  readonly args: string[] | undefined;
  readonly cwd: string | undefined;
  /** Read back from the keeper's initial environment (keeper.ts takes its settings from there). */
  readonly tty: { readonly cols: number; readonly rows: number } | undefined;
  readonly restart: { readonly policy: 'on-failure' | 'always'; readonly max: number } | undefined;
}

type KeeperSpecFile = Pick<FoundKeeper, 'command' | 'args' | 'cwd' | 'tty' | 'restart'>;

export function writeKeeperSpec(paths: HubPaths, record: ProcessRecord): void {
  const spec: KeeperSpecFile = {
    command: record.command,
    args: record.args,
    cwd: record.cwd,
    tty: record.tty,
    restart: restartOf(record.restart),
  };
  writeFileSync(keeperSpecFile(paths, record.id), JSON.stringify(spec), { mode: 0o600 });
}

function readKeeperSpec(paths: HubPaths, id: string): Partial<KeeperSpecFile> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(keeperSpecFile(paths, id), 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Partial<KeeperSpecFile>) : {};
  } catch {
    return {};
  }
}

const positive = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value > 0;

function sizeOf(value: unknown): FoundKeeper['tty'] {
  const size = value as { cols?: unknown; rows?: unknown } | undefined;
  return size && positive(size.cols) && positive(size.rows) ? { cols: size.cols, rows: size.rows } : undefined;
}

function restartOf(value: unknown): FoundKeeper['restart'] {
  const restart = value as { policy?: unknown; max?: unknown } | undefined;
  if (restart?.policy !== 'on-failure' && restart?.policy !== 'always') return undefined;
  return { policy: restart.policy, max: typeof restart.max === 'number' ? restart.max : 0 };
}

/** Every live keeper whose exit file lies in this HUB_HOME, by id, from one ps listing. */
export function findKeepersByCommand(paths: HubPaths): Map<string, FoundKeeper> {
  const found = new Map<string, FoundKeeper>();
  const marker = ` ${KEEPER_NAME} ${paths.processLogsDir}/`;
  for (const process of platform().processes.withCommands()) {
    // A keeper leads its own group; its forked children (before they exec) share its argv, not its pgid.
    if (process.pgid !== process.pid || process.pid <= 1 || process.state === 'Z' || process.state === 'X') continue;
    const at = process.command.indexOf(marker);
    if (at < 0) continue;
    const after = process.command.slice(at + marker.length);
    const match = /^([^/ ]+)\.exit (shell|argv) /.exec(after);
    const id = match?.[1] ?? '';
    if (!match || !ID_PATTERN.test(id)) continue;
    const spec = readKeeperSpec(paths, id);
    const mode = match[2] === 'argv' ? 'argv' : 'shell';
    found.set(id, {
      id,
      pid: process.pid,
      startTicks: process.startTicks,
      mode,
      command: typeof spec.command === 'string' ? spec.command : '?',
      args: mode === 'argv' && Array.isArray(spec.args) ? spec.args.map(String) : undefined,
      cwd: typeof spec.cwd === 'string' ? spec.cwd : undefined,
      tty: sizeOf(spec.tty),
      restart: restartOf(spec.restart),
    });
  }
  return found;
}
