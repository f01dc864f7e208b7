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

/** Stops home's shared hub, if one runs, and ends child servers a dead one left behind. */
export async function stopSharedHubIn(home: string): Promise<void> {
  homes.delete(home);
  await stopSharedHub(sharedHubPaths(home), silentLogger, 'test cleanup');
}

/** The pid of home's shared hub as hub.json records it. */
export const sharedHubPid = (home: string): number | undefined => readHubRecord(sharedHubPaths(home).record)?.pid;

afterAll(async () => {
  await Promise.all([...homes].map(home => stopSharedHubIn(home)));
});
