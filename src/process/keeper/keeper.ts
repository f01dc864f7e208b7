// The keeper: a detached POSIX shell that leads a process group and records its command's exit.
import { closeSync, existsSync, openSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { HubError } from '../../core/errors.js';
import { clip } from '../../core/clip.js';
import { liveGroupMembers } from '../../core/process-group.js';
import { platform } from '../../core/platform/platform.js';

// The keeper: a POSIX sh (dash: ~1.7 MB RSS, against ~40 MB for a Node keeper) that leads the
// process group, runs the command as its foreground child and, once the child is really gone,
// writes "<exit code> <epoch ms>" to the exit file (tmp + mv, so a reader never sees half a line;
// umask 077 first, so the file is 0600 whatever umask hub had).
// It traps the signals kill_process may send, so a group-wide SIGTERM ends the command but not
// the keeper: it records the exit even when no hub runs. POSIX shells run trap actions only after
// a foreground command completes, so the trap never cuts the wait short. The command runs in the
// foreground (not `cmd &`): a non-job-control sh would start a background child with SIGINT and
// SIGQUIT ignored. A trap action (not `trap ''`) is reset to default on exec, so the command
// receives every signal normally. `date +%s%3N` is GNU; elsewhere the hub falls back to the
// exit file's mtime.
// The log cap: a background subshell checks the log's size every second (every 0.1 s while it
// grows fast) and, when it is over, runs log-cap-main.js (a short-lived node) to cut it; it ends
// with the keeper (kill -0), and the keeper stops it and checks the cap once more when the command
// has ended. So the cap holds with no hub running. Its `sleep` is killed with it: no stray member.
export const KEEPER_SCRIPT = [
  'f=$1; m=$2; l=$3; cap=$4; node=$5; cut=$6; shift 6',
  'k=$$; q=0; d=0.2; w=; P=/usr/bin:/bin:$PATH',
  // Settings come in the environment (the argv positions are read back by keeper/scan.ts) and
  // are removed from it, so the command does not see them.
  'i=${HUB_KEEPER_IN-}; p=${HUB_KEEPER_PTY-}; r=${HUB_KEEPER_RESTART:-no}; x=${HUB_KEEPER_MAX:-0}; n=${HUB_KEEPER_RUNS:-0}; z=${HUB_KEEPER_TTY-}',
  'unset HUB_KEEPER_IN HUB_KEEPER_PTY HUB_KEEPER_RESTART HUB_KEEPER_MAX HUB_KEEPER_RUNS HUB_KEEPER_SCRIPT HUB_KEEPER_TTY',
  // The keeper's own stderr goes nowhere: sh reports a command the group's SIGTERM ended
  // ("Terminated", at every restart and kill) on it, into the log. The command's is the log (fd 4).
  'exec 4>&2 2>/dev/null',
  'b=${f%.exit}; j=0; g=1',
  'capcheck() { s=$(PATH=$P wc -c <"$l" 2>/dev/null) || return 0; d=1; [ $((s - q)) -gt $((cap / 8)) ] && d=0.1; q=$s; if [ "$s" -gt "$cap" ]; then "$node" "$cut" "$l" "$cap" >/dev/null 2>&1; q=0; fi; return 0; }',
  'if [ "$cap" -gt 0 ]; then',
  '  ( p=; trap \'[ -n "$p" ] && kill $p 2>/dev/null; exit 0\' TERM',
  // Its stderr goes nowhere: dash reports a `sleep` the group's SIGTERM ended ("Terminated"),
  // which would land in the log as if the command had said it.
  '    while kill -0 $k 2>/dev/null; do PATH=$P sleep $d & p=$!; wait $p; p=; capcheck; done ) </dev/null 2>/dev/null 4>&- &',
  '  w=$!',
  'fi',
  // stdin: a FIFO the keeper holds open read-write, so it never reaches end of input and any
  // hub, now or later, can write to it (terminal/fifo.ts); /dev/null when it cannot be made.
  'if [ -n "$i" ] && rm -f "$i" && PATH=$P mkfifo -m 600 "$i" 2>/dev/null; then exec 3<>"$i"; else i=/dev/null; fi',
  // Set after the log-cap subshell starts: a subshell inheriting a caught TERM would drop it
  // until its own trap is set, and the keeper's TERM to it would be lost.
  'trap : TERM INT HUP QUIT USR1 USR2',
  'while :; do',
  // Only with a policy: a process that is never restarted gets no extra fork beside it.
  '  [ "$r" = no ] || t0=$(PATH=$P date +%s)',
  // tty: util-linux script holds the pseudo-terminal (pty.ts builds the line it runs); BSD's
  // (macOS) takes the command as argv and flushes with -t 0 (core/platform/platform.ts says which).
  // In a subshell that execs it: sh applies a command's own redirections in the keeper itself
  // while it waits, so a 2>&4 there would send the report to the log after all.
  '  if [ "$z" = bsd ]; then ( export PATH=$P; exec script -q -t 0 /dev/null /bin/sh -c "$p" <"$i" 2>&4 3<&- 4>&- )',
  '  elif [ -n "$p" ]; then ( export SHELL=/bin/sh PATH=$P; exec script -qfec "$p" /dev/null <"$i" 2>&4 3<&- 4>&- )',
  '  elif [ "$m" = shell ]; then ( exec "${SHELL:-/bin/sh}" -c "$1" <"$i" 2>&4 3<&- 4>&- )',
  '  else ( exec "$@" <"$i" 2>&4 3<&- 4>&- ); fi',
  '  c=$?',
  // restart.ts: a kill marker ends the loop; a restart request runs the command again at once;
  // the restart policy with its backoff (1 s doubling to 60 s) and its most consecutive restarts.
  '  [ -e "$b.kill" ] && break',
  '  why=requested',
  '  if [ ! -e "$b.restart" ]; then',
  '    case $r in always) ;; on-failure) [ "$c" -eq 0 ] && break ;; *) break ;; esac',
  // A run of 10 s or more is not a crash loop: the count and the backoff start again.
  '    [ $(( $(PATH=$P date +%s) - t0 )) -ge 10 ] && { j=0; g=1; }',
  '    [ "$j" -ge "$x" ] && { F=" failed $j"; break; }',
  '    j=$((j + 1)); why=$r; PATH=$P sleep $g; g=$((g * 2)); [ $g -gt 60 ] && g=60',
  '    [ -e "$b.kill" ] && break; [ -e "$b.restart" ] && why=requested',
  '  fi',
  '  rm -f "$b.restart"; n=$((n + 1)); printf "%s\\n" "$n" >"$b.restarts"',
  // The marker starts a line of its own (a prompt leaves the last one open); in a terminal it
  // ends as the terminal's lines do (\r\n), so the screen shows it, and the next run, at column 0.
  '  e="\\n"; [ -n "$p" ] && e="\\r\\n"',
  '  [ -n "$(PATH=$P tail -c 1 "$l" 2>/dev/null)" ] && printf "$e"',
  '  printf "[hub: restart %s (%s) after exit code %s]$e" "$n" "$why" "$c"',
  'done',
  'if [ -n "$w" ]; then kill $w 2>/dev/null; wait $w 2>/dev/null; capcheck; fi',
  '[ "$i" != /dev/null ] && rm -f "$i"',
  'umask 077',
  // The command's env may set its own PATH: the keeper's tools come from the system dirs first.
  't=$(PATH=$P date +%s%3N 2>/dev/null)',
  'printf "%s %s%s\\n" "$c" "$t" "${F-}" >"$f.tmp" && PATH=$P mv -f "$f.tmp" "$f"',
].join('\n');

/** argv[2] of a keeper: runs KEEPER_SCRIPT from its environment (positional parameters kept). */
export const KEEPER_EVAL = 'eval "$HUB_KEEPER_SCRIPT"';

// The argv positions (after `-c <script>`), shared with keeper/scan.ts, which reads them back.
export const KEEPER_ARGV = { name: 3, exitFile: 4, mode: 5, command: 10 } as const;

// The short-lived log cutter the keeper runs: next to this module in dist/, or dist/ when hub
// runs from its sources (tests).
const LOG_CAP_MAIN = [
  new URL('../log-cap-main.js', import.meta.url),
  new URL('../../../dist/process/log-cap-main.js', import.meta.url),
]
  .map(url => fileURLToPath(url))
  .find(file => existsSync(file));

/** argv[0] of the keeper, as `ps` shows it. */
export const KEEPER_NAME = 'hub-keeper';

export interface KeeperSpec {
  readonly command: string;
  /** undefined: command is a shell line for $SHELL -c. */
  readonly args: readonly string[] | undefined;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly logFile: string;
  readonly exitFile: string;
  /** The log cap the keeper enforces; 0: none. */
  readonly logCapBytes: number;
  /** The FIFO the keeper makes and holds as the command's stdin. */
  readonly inputFile: string;
  /** Set for tty processes: the line util-linux script runs in the pseudo-terminal (pty.ts). */
  readonly ptyLine?: string | undefined;
  readonly restart?: { readonly policy: 'no' | 'on-failure' | 'always'; readonly max: number } | undefined;
  /** Restarts counted so far (a restart of an ended record goes on counting). */
  readonly runs?: number | undefined;
}

/** Starts the keeper detached (own session and group), output straight into the log file. */
export function spawnKeeper(spec: KeeperSpec): number {
  const tail: string[] = spec.args === undefined ? ['shell', spec.command] : ['argv', spec.command, ...spec.args];
  const cap = LOG_CAP_MAIN === undefined ? 0 : spec.logCapBytes;
  // The script travels in the environment, not argv: ps shows a short line, not 2.5 KB of sh.
  // Keepers started before this carry it inline; both have the same argv positions after it.
  const argv: string[] = [
    '-c',
    KEEPER_EVAL,
    KEEPER_NAME,
    spec.exitFile,
    tail[0] ?? 'shell',
    spec.logFile,
    String(cap),
    process.execPath,
    LOG_CAP_MAIN ?? '-',
    ...tail.slice(1),
  ];
  // O_APPEND: every write lands at the end, so the log cap can cut the file in place.
  const fd = openSync(spec.logFile, 'a', 0o600);
  let pid: number | undefined;
  try {
    // Plain spawn: a detached child with fixed descriptors is all this needs (execa's pipes,
    // promise and cleanup would only be switched off again).
    const child = spawn('/bin/sh', argv, {
      cwd: spec.cwd,
      env: {
        ...process.env,
        ...spec.env,
        HUB_KEEPER_IN: spec.inputFile,
        HUB_KEEPER_PTY: spec.ptyLine ?? '',
        HUB_KEEPER_RESTART: spec.restart?.policy ?? 'no',
        HUB_KEEPER_MAX: String(spec.restart?.max ?? 0),
        HUB_KEEPER_RUNS: String(spec.runs ?? 0),
        HUB_KEEPER_SCRIPT: KEEPER_SCRIPT,
        HUB_KEEPER_TTY: spec.ptyLine && platform().tools.flavour === 'bsd' ? 'bsd' : '',
      },
      detached: true,
      stdio: ['ignore', fd, fd],
    });
    // Hub does not wait for it; the keeper reports through the exit file. A refused spawn
    // (missing cwd, E2BIG) leaves pid undefined and is reported below.
    child.on('error', () => undefined);
    child.unref();
    pid = child.pid;
  } catch (error) {
    throw new HubError(
      'SPAWN_FAILED',
      `Could not start /bin/sh for "${clip(spec.command)}": ${clip((error as Error).message)}.`,
      { cause: error },
    );
  } finally {
    // The child holds its own copy; hub keeps no handle to the log.
    closeSync(fd);
  }
  if (pid === undefined) {
    throw new HubError(
      'SPAWN_FAILED',
      `Could not start /bin/sh for "${clip(spec.command)}": the system refused it (an argument over 128 KB or all of them over the system's limit, or /bin/sh missing). Shorten "args"/"command" or "env".`,
    );
  }
  return pid;
}

const START_WAIT_MS = 1_000;

// The keeper's traps are set once it catches SIGINT (bit 2) and SIGTERM (bit 15): before that,
// the keeper's own helpers (rm, mkfifo) run as children with other command lines, and a signal
// would end the keeper unrecorded.
const TRAPPED = (1n << 1n) | (1n << 14n);

// The restart policy's clock (`t0=$(date +%s)`) runs after the traps, before the command.
const KEEPER_HELPERS = new Set(['date +%s']);

// The command has started once the keeper's child has exec'd: its command line is no longer the
// keeper's (the log-cap subshell, also a child, keeps the keeper's) nor a helper's.
function commandExeced(pid: number, keeperCommandLine: string | undefined): boolean {
  // Traps first, then the children's command lines: where ps is the source, one ps each.
  const caught = platform().processes.caughtSignals(pid);
  if (caught === undefined) return liveGroupMembers(pid).length > 2;
  if ((caught & TRAPPED) !== TRAPPED) return false;
  const commands = platform().processes.childCommands(pid);
  if (commands === undefined) return liveGroupMembers(pid).length > 2;
  return commands.some(line => line !== keeperCommandLine && !KEEPER_HELPERS.has(line));
}

// Until the command has exec'd, a signal would meet the keeper's traps (in the keeper, or in the
// forked child before exec) and be lost. So start returns only after that (about a millisecond).
export async function waitForCommandStarted(pid: number, isRunning: () => boolean): Promise<void> {
  const until = Date.now() + START_WAIT_MS;
  const keeperCommandLine = platform().processes.commandLine(pid);
  while (Date.now() < until && isRunning() && !commandExeced(pid, keeperCommandLine)) await sleep(2);
}
