// The one platform seam: which implementation reads processes here (/proc, ps, or none).
import { HubError } from '../errors.js';
import { linuxProcesses } from './linux.js';
import { psProcesses } from './ps.js';
import type { PlatformProcesses, PlatformTools } from './types.js';

// The one platform seam (docs/platforms.md): what hub reads about processes, and the system
// tools it drives, where Linux and macOS differ. Chosen once per process from process.platform;
// HUB_PLATFORM overrides it: `portable` runs the ps/sysctl/lsof implementation on Linux (CI runs
// the process suite through it), `linux` forces /proc, any other value (`win32`) is taken as a
// system hub does not support: hub starts, proxies and installs, the process tools refuse.
export const PLATFORM_ENV = 'HUB_PLATFORM';

export interface Platform {
  /** The system as hub sees it: linux, darwin, or what it does not support (win32 ...). */
  readonly system: string;
  readonly processes: PlatformProcesses;
  readonly tools: PlatformTools;
  /** Set on a system whose processes hub cannot manage: the one error the process tools answer. */
  readonly unsupported: string | undefined;
}

const UTIL_LINUX: PlatformTools = {
  flavour: 'util-linux',
  sttyArgs: (path, cols, rows) => ['-F', path, 'cols', String(cols), 'rows', String(rows)],
  isTerminal: target => target.startsWith('/dev/pts/'),
  // sun_path holds 108 bytes with the terminating NUL.
  socketPathMax: 107,
  opener: { command: 'xdg-open', needsDisplay: true },
};

const BSD: PlatformTools = {
  flavour: 'bsd',
  sttyArgs: (path, cols, rows) => ['-f', path, 'cols', String(cols), 'rows', String(rows)],
  isTerminal: target => /^\/dev\/(ttys\d+|pts\/\d+)$/.test(target),
  // sun_path holds 104 bytes on macOS and the BSDs.
  socketPathMax: 103,
  opener: { command: 'open', needsDisplay: false },
};

// No process can be read: a pid is alive or not (kill 0), which is what locks and the shared
// hub's record need to work at all.
const NO_PROCESSES: PlatformProcesses = {
  source: 'none',
  identity(pid) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
    }
    return { pid, state: 'R', ppid: 0, pgid: 0, sid: 0, startTicks: 0 };
  },
  processes: () => [],
  bootId: () => 'unknown',
  startedAtMs: () => undefined,
  childrenOf: () => undefined,
  childCommands: () => undefined,
  descendantsOf: () => [],
  commandLine: () => undefined,
  withEnvEntry: () => new Set(),
  openFiles: () => [],
  caughtSignals: () => undefined,
  withCommands: () => [],
};

/** The platform for this system and HUB_PLATFORM (exported for tests; hub uses platform()). */
export function choosePlatform(system: string, forced: string | undefined): Platform {
  const bsdSystem = system === 'darwin' || system === 'freebsd' || system === 'openbsd';
  const tools = bsdSystem ? BSD : UTIL_LINUX;
  const wanted = forced?.trim() || (system === 'linux' ? 'linux' : bsdSystem ? 'portable' : system);
  if (wanted === 'linux' && system === 'linux')
    return { system, processes: linuxProcesses, tools, unsupported: undefined };
  if (wanted === 'portable' && (system === 'linux' || bsdSystem))
    return { system, processes: psProcesses(bsdSystem ? 'bsd' : 'procps'), tools, unsupported: undefined };
  const name = forced?.trim() ? `${PLATFORM_ENV}=${forced.trim()}` : system;
  return {
    system: wanted,
    processes: NO_PROCESSES,
    tools,
    unsupported: `Dev processes are not supported on ${name} yet: hub runs them on Linux and macOS (docs/platforms.md). Servers, installs and the rest of hub work here.`,
  };
}

let chosen: Platform | undefined;
export function platform(): Platform {
  chosen ??= choosePlatform(process.platform, process.env[PLATFORM_ENV]);
  return chosen;
}

/** Throws the one clear error on a system whose processes hub cannot manage. */
export function assertProcessesSupported(): void {
  const { unsupported } = platform();
  if (unsupported !== undefined) throw new HubError('UNSUPPORTED_PLATFORM', unsupported);
}
