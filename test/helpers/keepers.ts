import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HAS_PROC, psRows } from './ps-oracle.js';

// Keepers of one HUB_HOME, found in /proc independently of hub's own code: a keeper's argv is
// `/bin/sh -c <script> hub-keeper <home>/logs/processes/<id>.exit ...` and it leads its group.
export interface LiveKeeper {
  readonly id: string;
  readonly pid: number;
}

export function liveKeepersOf(home: string): LiveKeeper[] {
  const prefix = join(home, 'logs', 'processes') + '/';
  if (!HAS_PROC)
    return psRows().flatMap(row => {
      const at = row.command.indexOf(` hub-keeper ${prefix}`);
      const id = at < 0 ? undefined : /^([^ /]+)\.exit /.exec(row.command.slice(at + 12 + prefix.length))?.[1];
      return id !== undefined && row.pgid === row.pid && !row.state.startsWith('Z') ? [{ id, pid: row.pid }] : [];
    });
  const found: LiveKeeper[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z' || Number(fields[2]) !== Number(entry)) continue;
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const exitFile = argv[4] ?? '';
      if (argv[3] !== 'hub-keeper' || !exitFile.startsWith(prefix)) continue;
      found.push({ id: exitFile.slice(prefix.length).replace(/\.exit$/, ''), pid: Number(entry) });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

// Every live process under pid, by parent pid (a tty process's command runs in the terminal's own
// session and group, under the keeper's `script`).
function descendantsOf(pid: number): number[] {
  const byParent = new Map<number, number[]>();
  if (!HAS_PROC) for (const row of psRows()) byParent.set(row.ppid, [...(byParent.get(row.ppid) ?? []), row.pid]);
  for (const entry of HAS_PROC ? readdirSync('/proc') : []) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      byParent.set(ppid, [...(byParent.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const queue = [pid];
  for (let next = queue.shift(); next !== undefined; next = queue.shift())
    for (const child of byParent.get(next) ?? []) {
      found.push(child);
      queue.push(child);
    }
  return found;
}

/** SIGKILL the groups of every keeper of home, and what runs under them (cleanup for processes no record may know). */
export function reapKeepers(home: string): void {
  for (const keeper of liveKeepersOf(home)) {
    const under = descendantsOf(keeper.pid);
    for (const target of [-keeper.pid, ...under]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}
