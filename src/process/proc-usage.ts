// The CPU time and memory of one managed process's tree, for the dashboard's charts.
import { readFileSync } from 'node:fs';
import { descendantsOf } from './keeper/process-tree.js';

// The CPU time and memory of one managed process, from Linux's /proc: the dashboard's charts
// (dashboard/usage-sampler.ts) read nothing else of /proc, so another platform's way (macOS:
// proc_pidinfo through ps) goes here alone.

// USER_HZ, the unit of utime/stime in /proc/<pid>/stat: 100 on every Linux build node runs on.
const TICKS_PER_SECOND = 100;

export interface ProcessUsage {
  /** CPU time used so far (user + system), all of the process's tree, in ms. */
  readonly cpuMs: number;
  /** Resident memory of the process's tree now, in bytes. */
  readonly rssBytes: number;
}

const read = (file: string): string | undefined => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

/**
 * What the command under a keeper uses: the keeper's descendants (the command, and whatever it
 * started), not the keeper itself. undefined when none is left.
 */
export function processUsage(keeperPid: number): ProcessUsage | undefined {
  let ticks = 0;
  let rssKb = 0;
  let seen = 0;
  for (const pid of descendantsOf(keeperPid)) {
    const stat = read(`/proc/${pid}/stat`);
    if (stat === undefined) continue;
    // After the command name in parentheses (which may hold spaces): state is field 3, so
    // utime (14) and stime (15) are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
    const rss = /VmRSS:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`) ?? '');
    if (rss) rssKb += Number(rss[1]);
    seen += 1;
  }
  if (seen === 0) return undefined;
  return { cpuMs: (ticks * 1000) / TICKS_PER_SECOND, rssBytes: rssKb * 1024 };
}
