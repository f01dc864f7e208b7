// The test oracles' view of the process table where there is no /proc (macOS: the macos
// workflow), read with ps independently of hub's own code (src/core/platform-ps.ts).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const HAS_PROC = existsSync('/proc/self/stat');

export interface PsRow {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly state: string;
  readonly command: string;
}

export function psRows(): PsRow[] {
  const text = execFileSync('ps', ['-A', '-ww', '-o', 'pid=,ppid=,pgid=,stat=,command='], {
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return text.split('\n').flatMap(line => {
    const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s?(.*)$/.exec(line);
    return match
      ? [
          {
            pid: Number(match[1]),
            ppid: Number(match[2]),
            pgid: Number(match[3]),
            state: match[4] ?? '',
            command: match[5] ?? '',
          },
        ]
      : [];
  });
}
