import { readdirSync, readFileSync } from 'node:fs';

// /proc readers for the bench: CPU time (ns, all threads), RSS/PSS, and process trees.

function statFields(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after "comm)": index 0 is field 3 (state), so field N is at N - 3.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** The process's start time in clock ticks (field 22 of /proc/<pid>/stat), or undefined when it is gone. */
export function startTicksOf(pid) {
  const fields = statFields(pid);
  return fields === undefined ? undefined : Number(fields[19]);
}

export function isAlive(pid) {
  const fields = statFields(pid);
  return fields !== undefined && fields[0] !== 'Z' && fields[0] !== 'X';
}

/** CPU time of one process in ns: the sum of its threads' schedstat runtimes (ns precision, GC threads included). */
export function cpuNs(pid) {
  let total = 0;
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  for (const task of tasks) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // thread ended between readdir and read
    }
  }
  if (total > 0) return total;
  // Kernels without schedstat: utime + stime in clock ticks (10 ms).
  const fields = statFields(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) * 1e7 : 0;
}

export const treeCpuNs = pids => pids.reduce((sum, pid) => sum + cpuNs(pid), 0);

/** Every live descendant of pid (children, grandchildren, ...), found by ppid in /proc. */
export function descendants(pid) {
  const byParent = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (!fields || fields[0] === 'Z' || fields[0] === 'X') continue;
    const ppid = Number(fields[1]);
    if (!byParent.has(ppid)) byParent.set(ppid, []);
    byParent.get(ppid).push(Number(entry));
  }
  const out = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of byParent.get(queue.shift()) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** Every live pid in a process group. */
export function groupMembers(pgid) {
  const out = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (fields && Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') out.push(Number(entry));
  }
  return out;
}

function statusKb(pid, key) {
  try {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** VmRSS in kB. */
export const rssKb = pid => statusKb(pid, 'VmRSS');

/** Proportional set size in kB (shared pages split between their users), 0 when unreadable. */
export function pssKb(pid) {
  try {
    const match = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').match(/^Pss:\s+(\d+) kB/m);
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

export function commandLine(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
  } catch {
    return '';
  }
}
