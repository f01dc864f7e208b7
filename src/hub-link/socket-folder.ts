// The shared hub's socket only in a folder no one else controls.
import { lstatSync, mkdirSync, mkdtempSync, rmSync, statSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SharedHubPaths } from './paths.js';
import { readHubRecord } from './record.js';

// The shared hub's socket is never in a folder someone else controls: whoever can write that
// folder can swap the socket, receive every client's environment (API keys included) and answer
// as hub. Whoever can write the folder is told by its owner and mode, read without following a
// link where hub made the folder itself. Zod-free: the entry checks too (start.ts).

const myUid = (): number => (typeof process.getuid === 'function' ? process.getuid() : -1);
const modeOf = (stat: Stats): string => (stat.mode & 0o777).toString(8).padStart(3, '0');

/** Why no one but this user controls the folder, or undefined when so. */
function ownProblem(stat: Stats): string | undefined {
  if (stat.isSymbolicLink()) return 'is a symbolic link';
  if (!stat.isDirectory()) return 'is not a folder';
  if (stat.uid !== myUid()) return `is owned by uid ${stat.uid}, not this user (${myUid()})`;
  if ((stat.mode & 0o022) !== 0) return `can be written by others (mode ${modeOf(stat)})`;
  return undefined;
}

/** A folder hub made in a shared temporary folder: a real folder (lstat), this user's, mode 0700. */
function madeProblem(folder: string): string | undefined {
  const stat = lstatSync(folder);
  return ownProblem(stat) ?? ((stat.mode & 0o777) !== 0o700 ? `has mode ${modeOf(stat)}, not 700` : undefined);
}

/** A folder the person chose (HUB_HOME, XDG_RUNTIME_DIR; may be reached through their own links). */
const chosenProblem = (folder: string): string | undefined => ownProblem(statSync(folder));

const problemOf = (check: () => string | undefined): string | undefined => {
  try {
    return check();
  } catch (error) {
    return `cannot be used (${(error as Error).message})`;
  }
};

export interface SocketChoice {
  readonly socket: string;
  /** A folder made for this hub alone (mkdtemp), removed when it stops. */
  readonly made?: string;
}

/**
 * The first socket path whose folder only this user controls, its folder made (0700) when
 * missing and checked after; else a fresh private folder (mkdtemp). Why a folder was passed over
 * is told to warn, once. Throws when none can be had: the entries then run the hub in-process.
 */
export function chooseSocket(paths: SharedHubPaths, warn: (passed: string[], socket: string) => void): SocketChoice {
  const passed: string[] = [];
  for (const { path, inTmp } of paths.sockets) {
    const folder = dirname(path);
    const problem = problemOf(() => {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      return inTmp ? madeProblem(folder) : chosenProblem(folder);
    });
    if (problem === undefined) {
      if (passed.length > 0) warn(passed, path);
      return { socket: path };
    }
    passed.push(`${folder} ${problem}`);
  }
  const made = mkdtempSync(paths.fresh.prefix);
  const problem = problemOf(() => madeProblem(made));
  if (problem !== undefined) {
    rmSync(made, { recursive: true, force: true });
    throw new Error(`no private folder for the shared hub's socket: ${[...passed, `${made} ${problem}`].join('; ')}`);
  }
  const socket = join(made, paths.fresh.name);
  warn(passed, socket);
  return { socket, made };
}

/**
 * Why an entry must not send its hello (and its environment) to the socket at path: it is not
 * a socket of this user's, or its folder can be written by someone else. Undefined when safe.
 */
export function socketProblem(path: string): string | undefined {
  return problemOf(() => {
    const socket = lstatSync(path, { throwIfNoEntry: false });
    if (socket === undefined) return undefined; // nothing listens there: nothing is sent
    if (!socket.isSocket()) return `${path} is not a socket`;
    if (socket.uid !== myUid()) return `${path} is owned by uid ${socket.uid}, not this user (${myUid()})`;
    const folder = chosenProblem(dirname(path));
    return folder === undefined ? undefined : `${dirname(path)} ${folder}`;
  });
}

/** Removes what the hub listened on: the folder made for it, or a shared path no newer hub has taken. */
export function releaseSocket(choice: SocketChoice, record: string): void {
  if (choice.made !== undefined) rmSync(choice.made, { recursive: true, force: true });
  else if (readHubRecord(record) === undefined) rmSync(choice.socket, { force: true });
}
