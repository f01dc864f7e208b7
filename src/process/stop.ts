import { setTimeout as sleep } from 'node:timers/promises';
import { liveGroupMembers, signalGroup } from './group.js';

export const KILL_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGKILL', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2'] as const;
export type KillSignal = (typeof KILL_SIGNALS)[number];

const POLL_MS = 50;
// After SIGKILL the kernel needs a moment; past this the group is reported as not stopped.
const AFTER_SIGKILL_MS = 5_000;

export interface StopOutcome {
  /** Every member of the group is gone. */
  readonly stopped: boolean;
  /** SIGKILL had to be sent after grace_ms. */
  readonly escalated: boolean;
  readonly waitedMs: number;
}

async function waitGroupGone(pgid: number, untilMs: number): Promise<boolean> {
  for (;;) {
    if (liveGroupMembers(pgid).length === 0) return true;
    if (Date.now() >= untilMs) return false;
    await sleep(POLL_MS);
  }
}

// Signal the whole group, wait up to graceMs for every member (grandchildren included) to be
// gone, then SIGKILL the group (a member that traps or ignores the signal cannot stay).
// The caller has checked that pgid is still ours; the group id cannot be reused while any
// member lives, so signalling -pgid again later is safe.
export async function stopGroup(pgid: number, signal: KillSignal, graceMs: number): Promise<StopOutcome> {
  const started = Date.now();
  signalGroup(pgid, signal);
  if (signal !== 'SIGKILL' && (await waitGroupGone(pgid, started + graceMs))) {
    return { stopped: true, escalated: false, waitedMs: Date.now() - started };
  }
  const escalated = signal !== 'SIGKILL';
  signalGroup(pgid, 'SIGKILL');
  const stopped = await waitGroupGone(pgid, Date.now() + AFTER_SIGKILL_MS);
  return { stopped, escalated, waitedMs: Date.now() - started };
}
