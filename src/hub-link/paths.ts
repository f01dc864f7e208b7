import { createHash } from 'node:crypto';
import { join } from 'node:path';

// Where the shared hub of one HUB_HOME lives (docs/shared-hub.md "Discovery, races, death").

/** sun_path holds 108 bytes with the terminating NUL. */
const SUN_PATH_MAX = 107;

export interface SharedHubPaths {
  /** $HUB_HOME/hub.json: pid, identity, version and socket of the running shared hub. */
  readonly record: string;
  /** $HUB_HOME/hub.start.lock: one entry at a time starts a shared hub. */
  readonly startLock: string;
  /** $HUB_HOME/hub.children.json: the child servers' process groups, for the next hub to reap. */
  readonly children: string;
  /** $HUB_HOME/logs/shared-hub.stderr: what the daemon's Node itself printed (a fatal error, OOM). */
  readonly stderr: string;
  /** The unix socket, or undefined when no candidate fits in sun_path. */
  readonly socket: string | undefined;
}

const fits = (path: string): boolean => Buffer.byteLength(path) <= SUN_PATH_MAX;

export function sharedHubPaths(home: string, env: NodeJS.ProcessEnv = process.env): SharedHubPaths {
  const hash = createHash('sha256').update(home).digest('hex').slice(0, 16);
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  const candidates = [
    join(home, 'hub.sock'),
    ...(env.XDG_RUNTIME_DIR ? [join(env.XDG_RUNTIME_DIR, `hub-${hash}.sock`)] : []),
    join('/tmp', `hub-${uid}`, `${hash}.sock`),
  ];
  return {
    record: join(home, 'hub.json'),
    startLock: join(home, 'hub.start.lock'),
    children: join(home, 'hub.children.json'),
    stderr: join(home, 'logs', 'shared-hub.stderr'),
    socket: candidates.find(fits),
  };
}
