// Where the shared hub of one HUB_HOME lives: hub.json, the start lock, socket candidates.
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { platform } from '../core/platform/platform.js';

// Where the shared hub of one HUB_HOME lives (docs/shared-hub.md "Discovery, races, death").

export interface SharedHubPaths {
  /** $HUB_HOME/hub.json: pid, identity, version and socket of the running shared hub. */
  readonly record: string;
  /** $HUB_HOME/hub.start.lock: one entry at a time starts a shared hub. */
  readonly startLock: string;
  /** $HUB_HOME/logs/shared-hub.stderr: what the daemon's Node itself printed (a fatal error, OOM). */
  readonly stderr: string;
  /** $HUB_HOME/hub.children.json: the child servers' process groups, for the next hub to reap. */
  readonly children: string;
  /** The preferred unix socket, or undefined when no candidate fits in sun_path. */
  readonly socket: string | undefined;
  /** Every candidate that fits, preferred first; socket-folder.ts takes the first in a private folder. */
  readonly sockets: readonly SocketCandidate[];
  /** The socket's name in a fresh private folder (mkdtemp `<tmp>/hub-<uid>-XXXXXX`), the last resort. */
  readonly fresh: { readonly prefix: string; readonly name: string };
}

/**
 * A socket path and whether its folder is hub's own in a shared temporary folder (made by hub,
 * so it must be a real folder with mode 0700), or a folder the person chose (HUB_HOME, XDG_RUNTIME_DIR).
 */
export interface SocketCandidate {
  readonly path: string;
  readonly inTmp: boolean;
}

// sun_path: 107 bytes on Linux, 103 on macOS (core/platform/platform.ts).
const fits = (path: string): boolean => Buffer.byteLength(path) <= platform().tools.socketPathMax;

export function sharedHubPaths(home: string, env: NodeJS.ProcessEnv = process.env): SharedHubPaths {
  const hash = createHash('sha256').update(home).digest('hex').slice(0, 16);
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  const name = `${hash}.sock`;
  // TMPDIR when set (the person's own choice), else /tmp; /tmp when TMPDIR is too long for a socket.
  const tmp = fits(join(tmpdir(), `hub-${uid}-XXXXXX`, name)) ? tmpdir() : '/tmp';
  const candidates: SocketCandidate[] = [
    { path: join(home, 'hub.sock'), inTmp: false },
    ...(env.XDG_RUNTIME_DIR ? [{ path: join(env.XDG_RUNTIME_DIR, `hub-${name}`), inTmp: false }] : []),
    { path: join(tmp, `hub-${uid}`, name), inTmp: true },
  ];
  const sockets = candidates.filter(candidate => fits(candidate.path));
  return {
    record: join(home, 'hub.json'),
    startLock: join(home, 'hub.start.lock'),
    children: join(home, 'hub.children.json'),
    stderr: join(home, 'logs', 'shared-hub.stderr'),
    socket: sockets[0]?.path,
    sockets,
    fresh: { prefix: join(tmp, `hub-${uid}-`), name },
  };
}
