import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Keepers of one HUB_HOME, found in /proc independently of hub's own code: a keeper's argv is
// `/bin/sh -c <script> hub-keeper <home>/logs/processes/<id>.exit ...` and it leads its group.
export interface LiveKeeper {
  readonly id: string;
  readonly pid: number;
}

export function liveKeepersOf(home: string): LiveKeeper[] {
  const prefix = join(home, 'logs', 'processes') + '/';
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

/** SIGKILL the groups of every keeper of home (cleanup for processes no record may know). */
export function reapKeepers(home: string): void {
  for (const keeper of liveKeepersOf(home)) {
    try {
      process.kill(-keeper.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
