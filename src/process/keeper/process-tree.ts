// A keeper's live descendants: the command it runs now and the sessions started under it.
import { platform } from '../../core/platform/platform.js';
import type { OpenFile } from '../../core/platform/types.js';
import { readProcessIdentity } from '../../core/process-identity.js';

// A keeper's live descendants (core/platform/platform.ts: /proc/<pid>/task/<pid>/children on Linux, one
// ps elsewhere). Bounded: a fork bomb under a keeper costs at most MAX_DESCENDANTS reads.
const MAX_DESCENDANTS = 4_096;

export const childrenOf = (pid: number): number[] => platform().processes.childrenOf(pid) ?? [];

export const descendantsOf = (pid: number): number[] => platform().processes.descendantsOf(pid, MAX_DESCENDANTS);

export const commandLineOf = (pid: number): string | undefined => platform().processes.commandLine(pid);

/** The open descriptors below maxFd of these processes. */
export const openFilesOf = (pids: readonly number[], maxFd: number): OpenFile[] =>
  platform().processes.openFiles(pids, maxFd);

/**
 * The process the keeper runs now and everything under it: the keeper's children that have
 * exec'd (its forked subshells, the log cap's among them, keep its command line), with their
 * descendants. What restart_process stops.
 */
export function commandTree(keeperPid: number): number[] {
  const keeperLine = commandLineOf(keeperPid);
  return childrenOf(keeperPid)
    .filter(child => commandLineOf(child) !== keeperLine)
    .flatMap(child => [child, ...descendantsOf(child)]);
}

/** Sessions started under the keeper (the pseudo-terminal's, a command's own setsid). */
export function sessionsUnder(keeperPid: number): number[] {
  const keeperSid = readProcessIdentity(keeperPid)?.sid;
  const sids = new Set<number>();
  for (const pid of descendantsOf(keeperPid)) {
    const sid = readProcessIdentity(pid)?.sid;
    if (sid !== undefined && sid !== keeperSid && sid > 1) sids.add(sid);
  }
  return [...sids];
}
