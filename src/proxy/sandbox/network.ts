// A sandboxed child's network: the internet without this machine's services (slirp4netns), host, none.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Duplex, Readable, Writable } from 'node:stream';
import { resolveExecutable } from '../../core/executable.js';

// A sandboxed child's network (docs/sandbox.md, "The network"). The default ("all") gives it the
// internet but not this machine's services: the child gets its own network namespace (bwrap
// --unshare-net) and slirp4netns, a user-mode TCP/IP stack, relays what it sends, with the host's
// loopback off (--disable-host-loopback): 127.0.0.1 inside is the child's own, and the host's
// 127.0.0.1 is out of reach. Every program works (raw TCP and UDP, Node's fetch, which ignores
// HTTP_PROXY before Node 24), unlike a proxy only proxy-aware programs use.
//
// slirp4netns starts only once bwrap's own setup is done: its --configure brings the namespace's
// loopback up, and the kernel then gives lo 127.0.0.1 itself, so bwrap's own RTM_NEWADDR for it
// (NLM_F_EXCL) failed with EEXIST whenever slirp4netns got there first, which two starts at once
// made likely ("bwrap: loopback: Failed RTM_NEWADDR: No child processes": bwrap reports a netlink
// error with a stale errno, ECHILD from an earlier waitpid). So the server runs behind a gate: a
// shell in the sandbox, run once bwrap's setup is complete, says so on fd 4 and waits there until
// slirp4netns says its interface is up; hub starts slirp4netns between the two. The server never
// starts before its network; slirp4netns ends when its exit fd closes (the child ended, or hub died).
/** A list: only those hosts (named-hosts.ts). */
export type NetworkMode = 'all' | 'none' | 'host' | readonly string[];

/** What the network of one child adds to its launch. */
export interface NetworkLaunch {
  /** bwrap arguments (before the mounts). */
  readonly bwrapArgs: string[];
  /** stdio entries after stdin/stdout/stderr (bwrap's info fd 3 and the gate's fd 4). */
  readonly extraStdio: number;
  /** What runs in front of the server inside the sandbox (the gate). */
  readonly wrap?: readonly string[];
  /** Called once the child is spawned: starts its relay and lets it run. */
  readonly onSpawn?: ((child: ChildProcess, log: (line: string) => void) => void) | undefined;
  /** For the server's log and its policy view. */
  readonly note: string;
}

const READY_TIMEOUT_MS = 10_000;
// Says "bwrap is done" on fd 4, waits there for hub's line, closes hub's fds and becomes the server.
const GATE = 'printf 1 >&4; read -r _ <&4; exec 3<&- 4<&-; exec "$@"';
const INFO_MAX_CHARS = 4096;

export const SLIRP_HINT =
  'install slirp4netns (Debian/Ubuntu: apt-get install slirp4netns; Fedora: dnf install slirp4netns)';

/** slirp4netns on this PATH, or undefined. */
export const findSlirp = (pathEnv: string | undefined): string | undefined =>
  resolveExecutable('slirp4netns', pathEnv, '/');

export function networkFor(mode: NetworkMode, slirp: string | undefined): NetworkLaunch {
  if (typeof mode !== 'string') return { bwrapArgs: ['--unshare-net'], extraStdio: 0, note: '' };
  if (mode === 'none') return { bwrapArgs: ['--unshare-net'], extraStdio: 0, note: 'network none' };
  if (mode === 'host')
    return { bwrapArgs: [], extraStdio: 0, note: "network host (this machine's network, localhost included)" };
  // Without slirp4netns the child shares this machine's network: said in each start's log line,
  // in its policy view and in `hub status`, never silently.
  if (slirp === undefined)
    return {
      bwrapArgs: [],
      extraStdio: 0,
      note: `network all, LOCALHOST INCLUDED (slirp4netns is not installed: ${SLIRP_HINT})`,
    };
  return {
    bwrapArgs: ['--unshare-net', '--info-fd', '3'],
    extraStdio: 2,
    wrap: ['/bin/sh', '-c', GATE, 'hub-network-gate'],
    onSpawn: (child, log) => relay(child, slirp, log),
    note: "network all but this machine's services (slirp4netns, host loopback off)",
  };
}

function relay(child: ChildProcess, slirp: string, log: (line: string) => void): void {
  const info = child.stdio[3] as Readable | null;
  const gate = child.stdio[4] as Duplex | null;
  if (info === null || gate === null) return;
  let text = '';
  let pid: string | undefined;
  let setupDone = false;
  let started: ChildProcess | undefined;
  let released = false;
  // Lets the server run: with its network, or (the relay failed) with none at all, never more.
  const release = (failure?: string) => {
    if (released) return;
    released = true;
    if (failure !== undefined) log(`sandbox: network relay failed (${failure}): the server runs with no network\n`);
    gate.end('1\n');
  };
  const timer = setTimeout(() => release('slirp4netns was not ready in time'), READY_TIMEOUT_MS);
  timer.unref();
  info.on('error', () => undefined);
  gate.on('error', () => undefined);
  info.on('data', (chunk: Buffer) => {
    if (pid !== undefined || text.length > INFO_MAX_CHARS) return;
    text += chunk.toString('utf8');
    pid = /"child-pid":\s*(\d+)/.exec(text)?.[1];
    startSlirp();
  });
  gate.on('data', () => {
    setupDone = true;
    startSlirp();
  });
  // Both known: bwrap's child (the namespace's holder) and its setup, loopback included, done.
  const startSlirp = () => {
    if (started !== undefined || pid === undefined || !setupDone || released) return;
    const args = ['--configure', '--mtu=65520', '--disable-host-loopback', '--enable-sandbox', '--enable-seccomp'];
    started = spawn(slirp, [...args, '--ready-fd=3', '--exit-fd=4', pid, 'tap0'], {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
    });
    const own = started;
    let errors = '';
    own.stderr?.on('data', (data: Buffer) => (errors = `${errors}${data.toString('utf8')}`.slice(-500)));
    (own.stdio[3] as Readable).once('data', () => {
      clearTimeout(timer);
      release();
    });
    for (const stream of [own.stdio[3], own.stdio[4]]) stream?.on('error', () => undefined);
    own.once('error', error => release(error.message));
    own.once('exit', (code, signal) => {
      clearTimeout(timer);
      release(`slirp4netns exited (${signal ?? `code ${code}`}): ${errors.trim().split('\n').pop() ?? ''}`);
    });
  };
  child.once('exit', () => {
    clearTimeout(timer);
    info.destroy();
    gate.destroy();
    // Its exit fd closes: slirp4netns ends.
    (started?.stdio[4] as Writable | undefined)?.destroy();
  });
}
