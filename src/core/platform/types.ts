// The platform seam's shapes (core/platform/platform.ts picks the implementation). Everything hub reads
// about processes that differs between Linux (/proc) and other systems (ps, sysctl, lsof) goes
// through a PlatformProcesses; the tools that differ (script, stty, the browser opener, the
// socket path limit) through PlatformTools.

// Who a pid is right now: a pid alone is a hint (pids are recycled); pid + start time + boot id
// names one process for good.
export interface ProcessIdentity {
  readonly pid: number;
  /** One letter: R, S, D, T, Z (zombie), X ... as both /proc and ps report it. */
  readonly state: string;
  readonly ppid: number;
  readonly pgid: number;
  /** Session id: a child that left the keeper's group with setpgid is still in its session (0: unknown). */
  readonly sid: number;
  /** When it started, in 1/100 s: since boot on Linux (/proc), since the epoch from ps (whole seconds). */
  readonly startTicks: number;
}

/** One open descriptor of a process. */
export interface OpenFile {
  readonly pid: number;
  readonly fd: number;
  readonly target: string;
}

export interface PlatformProcesses {
  /** 'proc' (Linux /proc), 'ps' (ps/sysctl/lsof: macOS, or Linux with HUB_PLATFORM=portable), 'none'. */
  readonly source: 'proc' | 'ps' | 'none';
  identity(pid: number): ProcessIdentity | undefined;
  /** Every process (zombies included), in one pass. */
  processes(): ProcessIdentity[];
  /** Stable for one boot of the machine, different after a reboot. */
  bootId(): string;
  /** When a process of this startTicks started (epoch ms), or undefined when unknown. */
  startedAtMs(startTicks: number): number | undefined;
  /** Direct children; undefined when they cannot be read (the process is gone). */
  childrenOf(pid: number): number[] | undefined;
  /** The command lines of its direct children (one ps, where ps is the source). */
  childCommands(pid: number): string[] | undefined;
  /** Live descendants, breadth first, at most max. */
  descendantsOf(pid: number, max: number): number[];
  /** argv joined by spaces (from ps: as ps prints it), to compare processes by what they run. */
  commandLine(pid: number): string | undefined;
  /** Processes whose environment holds this exact entry (KEY=value), this user's processes only. */
  withEnvEntry(entry: string): Set<number>;
  /** Open descriptors of these processes, fd below maxFd. */
  openFiles(pids: readonly number[], maxFd: number): OpenFile[];
  /** The signals the process catches (bit n-1 for signal n), undefined when unknown. */
  caughtSignals(pid: number): bigint | undefined;
  /** Every process with its command line (as commandLine gives it), in one pass. */
  withCommands(): (ProcessIdentity & { readonly command: string })[];
  /** Only where a process's argv, environment and cwd can be read exactly (Linux /proc). */
  readonly exact?: {
    argv(pid: number): string[] | undefined;
    environ(pid: number): string[] | undefined;
    cwd(pid: number): string | undefined;
  };
}

export interface PlatformTools {
  /** 'util-linux' (script -qfec, stty -F) or 'bsd' (script -q -t 0, stty -f). */
  readonly flavour: 'util-linux' | 'bsd';
  /** stty's arguments that set the size of the terminal at path. */
  sttyArgs(path: string, cols: number, rows: number): string[];
  /** Whether a descriptor's target is a pseudo-terminal's slave. */
  isTerminal(target: string): boolean;
  /** The longest unix socket path (sun_path less its NUL). */
  readonly socketPathMax: number;
  /** The command that opens a URL in the person's browser, and whether it needs a display. */
  readonly opener: { readonly command: string; readonly needsDisplay: boolean };
}
