// A server's state and call metrics, shared between processes: the hub that runs a child writes
// HUB_HOME/state/<server>/<its pid>.json; `hub servers` (and any other hub) reads them all. One
// file per writer, so hubs of different clients running the same server never overwrite each
// other; a file whose writer is dead reads as nothing (stopped) and is removed.
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { HubPaths } from '../core/paths.js';
import { pidAlive } from '../core/process-identity.js';
import { writeFileAtomic } from '../core/write-atomic.js';

export const SharedServerStateSchema = z.object({
  pid: z.number().int().positive(),
  state: z.enum(['stopped', 'starting', 'ready', 'degraded', 'failed']),
  calls: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  meanMs: z.number().nullable(),
  p95Ms: z.number().nullable(),
  /** Absent from files written by older hubs. */
  p50Ms: z.number().nullable().optional(),
  restarts: z.number().int().nonnegative(),
  lastError: z.string().optional(),
  updatedAt: z.string(),
});
export type SharedServerState = z.infer<typeof SharedServerStateSchema>;

export const serverStateDir = (paths: HubPaths, name: string): string => join(paths.home, 'state', name);

/** Written beside and renamed over, so a reader never sees half a file. Best effort: never throws. */
export function writeSharedState(dir: string, snapshot: SharedServerState): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileAtomic(join(dir, `${snapshot.pid}.json`), JSON.stringify(snapshot));
  } catch {
    // A full disk or a removed HUB_HOME must not fail a tool call: the state is advisory.
  }
}

/** The live writers' states for one server (a dead writer's file is removed on the way). */
export function readSharedStates(paths: HubPaths, name: string): SharedServerState[] {
  const dir = serverStateDir(paths, name);
  let files: string[];
  try {
    files = readdirSync(dir).filter(file => /^\d+\.json$/.test(file));
  } catch {
    return [];
  }
  const states: SharedServerState[] = [];
  for (const file of files) {
    try {
      const parsed = SharedServerStateSchema.safeParse(JSON.parse(readFileSync(join(dir, file), 'utf8')));
      if (!parsed.success) continue;
      if (pidAlive(parsed.data.pid)) states.push(parsed.data);
      else rmSync(join(dir, file), { force: true });
    } catch {
      // Gone between readdir and read, or unreadable: not a live writer.
    }
  }
  return states;
}

const RANK = { ready: 4, starting: 3, degraded: 2, failed: 1, stopped: 0 } as const;

/** One view of several hubs: the liveliest state, summed counts, the worst p95. */
export function mergeSharedStates(
  states: readonly SharedServerState[],
): Omit<SharedServerState, 'pid' | 'updatedAt'> | undefined {
  if (states.length === 0) return undefined;
  const calls = states.reduce((sum, state) => sum + state.calls, 0);
  const weighted = states.reduce((sum, state) => sum + (state.meanMs ?? 0) * state.calls, 0);
  const p95s = states.map(state => state.p95Ms).filter((ms): ms is number => ms !== null);
  const latest = [...states]
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
    .find(state => state.lastError !== undefined);
  return {
    state: states.reduce((best, state) => (RANK[state.state] > RANK[best] ? state.state : best), states[0]!.state),
    calls,
    errors: states.reduce((sum, state) => sum + state.errors, 0),
    meanMs: calls === 0 ? null : Math.round((weighted / calls) * 100) / 100,
    p95Ms: p95s.length === 0 ? null : Math.max(...p95s),
    restarts: states.reduce((sum, state) => sum + state.restarts, 0),
    ...(latest?.lastError !== undefined && { lastError: latest.lastError }),
  };
}
