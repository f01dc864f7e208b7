// Stopping a process group: signal, wait for every member within the grace, then SIGKILL.
import { setTimeout as sleep } from 'node:timers/promises';
import { liveProcesses, signalGroup } from '../../core/process-group.js';
import { isSameProcess, type ProcessIdentity } from '../../core/process-identity.js';

export const KILL_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGKILL', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2'] as const;
export type KillSignal = (typeof KILL_SIGNALS)[number];

const POLL_MS = 50;
// After SIGKILL the kernel needs a moment; past this the group is reported as not stopped.
const AFTER_SIGKILL_MS = 5_000;

export interface StopOutcome {
  /** Every member of the group (and of the extra groups) is gone. */
  readonly stopped: boolean;
  /** SIGKILL had to be sent after grace_ms. */
  readonly escalated: boolean;
  readonly waitedMs: number;
  /** Pids of the extra groups and processes still alive after SIGKILL. */
  readonly survivors: number[];
  /** Extra processes hub may not signal (EPERM: they changed user, e.g. through sudo). */
  readonly refused: number[];
}

const membersOf = (groups: ReadonlySet<number>): number[] =>
  liveProcesses(identity => groups.has(identity.pgid)).map(identity => identity.pid);

// A single process, checked by start time first: its pid may have been reused since it was found.
const livePids = (pids: readonly ProcessIdentity[]): number[] =>
  pids.filter(found => isSameProcess(found.pid, found.startTicks)).map(found => found.pid);

function signalPids(pids: readonly ProcessIdentity[], signal: NodeJS.Signals, refused: Set<number>): void {
  for (const pid of livePids(pids)) {
    try {
      process.kill(pid, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EPERM') refused.add(pid);
    }
  }
}

async function waitGone(
  groups: ReadonlySet<number>,
  pids: readonly ProcessIdentity[],
  untilMs: number,
): Promise<boolean> {
  for (;;) {
    if (membersOf(groups).length === 0 && livePids(pids).length === 0) return true;
    if (Date.now() >= untilMs) return false;
    await sleep(POLL_MS);
  }
}

// Signal the whole group (and extraGroups: groups that left it, see session.ts), wait up to
// graceMs for every member (grandchildren included) to be gone, then SIGKILL them (a member
// that traps or ignores the signal cannot stay). The caller has checked that pgid is still ours;
// a group id cannot be reused while any member lives, so signalling -pgid again later is safe.
// With onlyExtraFirst, the first signal goes to extraGroups alone: the keeper's group ends by
// itself once they have (a tty's util-linux script, signalled, would SIGKILL the command 2 s
// later whatever graceMs says). extraPids (processes that left the session, see marked.ts) are
// signalled one by one: their groups may hold processes that are not ours.
export async function stopGroup(
  pgid: number,
  signal: KillSignal,
  graceMs: number,
  extraGroups: readonly number[] = [],
  onlyExtraFirst = false,
  extraPids: readonly ProcessIdentity[] = [],
): Promise<StopOutcome> {
  const started = Date.now();
  const groups = new Set([pgid, ...extraGroups].filter(group => group > 1));
  const refused = new Set<number>();
  const first = onlyExtraFirst && extraGroups.some(group => group > 1 && group !== pgid);
  for (const group of groups) if (!first || group !== pgid) signalGroup(group, signal);
  signalPids(extraPids, signal, refused);
  // A process hub may not signal is reported, not waited for.
  const signalled = () => extraPids.filter(found => !refused.has(found.pid));
  if (signal !== 'SIGKILL' && (await waitGone(groups, signalled(), started + graceMs))) {
    const left = livePids(extraPids.filter(found => refused.has(found.pid)));
    return { stopped: true, escalated: false, waitedMs: Date.now() - started, survivors: [], refused: left };
  }
  const escalated = signal !== 'SIGKILL';
  for (const group of groups) signalGroup(group, 'SIGKILL');
  signalPids(extraPids, 'SIGKILL', refused);
  const waited = signalled();
  const stopped = await waitGone(groups, waited, Date.now() + AFTER_SIGKILL_MS);
  return {
    stopped,
    escalated,
    waitedMs: Date.now() - started,
    survivors: stopped ? [] : [...membersOf(new Set(extraGroups)), ...livePids(waited)],
    refused: livePids(extraPids.filter(found => refused.has(found.pid))),
  };
}
