// Finding the shared hub or starting it, one entry at a time under hub.start.lock.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { isSameProcess } from '../core/process-identity.js';
import { HUB_VERSION } from '../core/version.js';
import { breakStaleLock } from '../store/lock/break.js';
import { createExclusive, isStale, myIdentity, readIfExists, unlinkIfMine } from '../store/lock/file.js';
import type { SharedHubPaths } from './paths.js';
import { socketProblem } from './socket-folder.js';
import { compareVersions, isLiveHub, readHubRecord } from './record.js';

// Finding the shared hub, or starting it: one entry at a time under hub.start.lock (the store
// lock's O_EXCL file and dead-holder rules), so two entries racing end with one hub.

const START_WAIT_MS = 15_000;
const POLL_MS = 25;
const SERVER_JS = fileURLToPath(new URL('../server.js', import.meta.url));

/** A connected socket, or undefined when nothing listens there. */
export function tryConnect(path: string): Promise<Socket | undefined> {
  return new Promise(resolve => {
    const socket = connect(path);
    const fail = () => (socket.destroy(), resolve(undefined));
    socket.once('error', fail);
    socket.once('connect', () => (socket.off('error', fail), resolve(socket)));
  });
}

/** Asks the hub on path to stop (hand over) and waits until its process is gone. */
export async function askToStop(path: string, reason: string, pid?: number, timeoutMs = 10_000): Promise<boolean> {
  const socket = await tryConnect(path);
  if (socket) {
    socket.on('error', () => undefined);
    socket.end(`${JSON.stringify({ hub: 'stop', reason })}\n`);
    socket.resume();
  }
  const deadline = Date.now() + timeoutMs;
  while (pid !== undefined && Date.now() < deadline) {
    if (!isSameProcess(pid)) return true;
    await sleep(POLL_MS);
  }
  return pid === undefined;
}

export type Attach = { socket: Socket; path: string } | { reason: string };

/** Connects to this HUB_HOME's shared hub, starting one (detached) when none answers. */
export async function attachSharedHub(home: string, paths: SharedHubPaths, env: NodeJS.ProcessEnv): Promise<Attach> {
  if (paths.socket === undefined) return { reason: `no unix socket path fits (HUB_HOME ${home} is too long)` };
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
  } catch (error) {
    return { reason: `cannot create ${home} (${(error as Error).message})` };
  }
  const deadline = Date.now() + START_WAIT_MS;
  let spawnProblem: string | undefined;
  while (Date.now() < deadline) {
    const found = await findLive(paths);
    if (found) return found;
    let mine: string;
    try {
      mine = myIdentity();
      if (!createExclusive(paths.startLock, mine)) {
        // Another entry is starting it: wait for its socket (or its lock to go stale).
        const holder = readIfExists(paths.startLock);
        if (holder !== undefined && isStale(paths.startLock, holder)) breakStaleLock(paths.startLock, holder);
        else await sleep(POLL_MS);
        continue;
      }
    } catch (error) {
      return { reason: `cannot take ${paths.startLock} (${(error as Error).message})` };
    }
    try {
      const again = await findLive(paths);
      if (again) return again;
      const started = await startDaemon(paths, env, deadline);
      if ('socket' in started) return started;
      spawnProblem = started.reason;
      break;
    } finally {
      unlinkIfMine(paths.startLock, mine);
    }
  }
  return { reason: spawnProblem ?? `no shared hub answered within ${START_WAIT_MS} ms` };
}

// The hello carries the client's whole environment: never to a socket someone else could have put there.
async function connectPrivate(path: string): Promise<Attach | undefined> {
  const problem = socketProblem(path);
  if (problem !== undefined) return { reason: `the shared hub's socket is not private (${problem})` };
  const socket = await tryConnect(path);
  return socket && { socket, path };
}

// The recorded hub when it is live and not older than this entry; an older one is asked to hand over.
async function findLive(paths: SharedHubPaths): Promise<Attach | undefined> {
  const record = readHubRecord(paths.record);
  if (record && isLiveHub(record)) {
    if (compareVersions(record.version, HUB_VERSION) < 0) {
      await askToStop(record.socket, `a newer hub (${HUB_VERSION}) takes over`, record.pid);
      return undefined;
    }
    return connectPrivate(record.socket);
  }
  return undefined;
}

// The daemon logs to logs/hub.log itself; its stderr keeps what only Node can say (a fatal
// error, out of memory) when it dies. Started afresh once it passes STDERR_KEEP_BYTES.
const STDERR_KEEP_BYTES = 256 * 1024;
function daemonStderr(file: string): number | 'ignore' {
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const big = (statSync(file, { throwIfNoEntry: false })?.size ?? 0) > STDERR_KEEP_BYTES;
    return openSync(file, big ? 'w' : 'a', 0o600);
  } catch {
    return 'ignore'; // a read-only HUB_HOME: the hub itself says so in its log
  }
}

async function startDaemon(paths: SharedHubPaths, env: NodeJS.ProcessEnv, deadline: number): Promise<Attach> {
  let exited: string | undefined;
  const stderr = daemonStderr(paths.stderr);
  try {
    const child = spawn(process.execPath, [SERVER_JS, 'daemon'], {
      detached: true,
      stdio: ['ignore', 'ignore', stderr],
      env,
      cwd: '/',
    });
    child.once('error', error => (exited = `cannot start the shared hub (${error.message})`));
    child.once(
      'exit',
      (code, signal) => (exited = `the shared hub exited at start (${signal ?? `code ${code}`}; see logs/hub.log)`),
    );
    child.unref();
  } catch (error) {
    return { reason: `cannot start the shared hub (${(error as Error).message})` };
  } finally {
    if (typeof stderr === 'number') closeSync(stderr);
  }
  while (Date.now() < deadline && exited === undefined) {
    const record = readHubRecord(paths.record);
    if (record && isLiveHub(record)) {
      const attached = await connectPrivate(record.socket);
      if (attached) return attached;
    }
    await sleep(POLL_MS);
  }
  return { reason: exited ?? 'the shared hub did not answer in time' };
}
