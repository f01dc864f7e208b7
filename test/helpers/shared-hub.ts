import { readdirSync, readFileSync } from 'node:fs';
import { afterAll } from 'vitest';
import { stopSharedHub } from '../../src/hub-link/control.js';
import { sharedHubPaths } from '../../src/hub-link/paths.js';
import { readHubRecord } from '../../src/hub-link/record.js';
import { silentLogger } from '../../src/core/logger.js';

// Every stdio hub a test starts attaches to its HUB_HOME's shared hub, which outlives the test
// unless stopped: an idle timer is not cleanup. Homes are noted when a hub is spawned there and
// stopped when the test (makeHubHome) or the file (afterAll below) ends.
const homes = new Set<string>();

export function noteHubHome(home: string | undefined): void {
  if (home !== undefined) homes.add(home);
}

/** `dist/server.js daemon` processes serving home, read from /proc (a hub.json not written yet too). */
export function daemonsOf(home: string): number[] {
  return readdirSync('/proc')
    .filter(entry => /^\d+$/.test(entry))
    .map(Number)
    .filter(pid => {
      try {
        if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[2] !== 'daemon') return false;
        return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`HUB_HOME=${home}`);
      } catch {
        return false;
      }
    });
}

/**
 * Stops home's shared hub, if one runs, and ends child servers a dead one left behind. A shared
 * hub still starting (its entry killed by the test before it attached) is killed too: it would
 * recreate home and wait out its idle time.
 */
export async function stopSharedHubIn(home: string): Promise<void> {
  homes.delete(home);
  await stopSharedHub(sharedHubPaths(home), silentLogger, 'test cleanup');
  const starting = daemonsOf(home);
  for (const pid of starting) process.kill(pid, 'SIGKILL');
  if (starting.length > 0) await stopSharedHub(sharedHubPaths(home), silentLogger, 'test cleanup');
}

/** The pid of home's shared hub as hub.json records it. */
export const sharedHubPid = (home: string): number | undefined => readHubRecord(sharedHubPaths(home).record)?.pid;

afterAll(async () => {
  await Promise.all([...homes].map(home => stopSharedHubIn(home)));
});
