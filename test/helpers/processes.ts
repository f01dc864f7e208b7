import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, onTestFinished, vi } from 'vitest';
import type { HubSession } from './hub.js';
import { silentLogger } from '../../src/core/logger.js';
import { hubPaths } from '../../src/core/paths.js';
import { readProcessIdentity } from '../../src/core/process-identity.js';
import { createProcessManager } from '../../src/process/manager.js';
import { openStore } from '../../src/store/store.js';
import { reapKeepers } from './keepers.js';
import { HAS_PROC, psRows } from './ps-oracle.js';
import { sharedHubPid } from './shared-hub.js';

function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Alive and not a zombie (a zombie still answers kill 0, but it has ended). */
export function isAlive(pid: number): boolean {
  if (!HAS_PROC) return psRows().some(row => row.pid === pid && !row.state.startsWith('Z'));
  const fields = statFields(pid);
  return fields !== undefined && fields[0] !== 'Z' && fields[0] !== 'X';
}

/** Every live pid whose process group is pgid, read from /proc. */
export function groupMembers(pgid: number): number[] {
  if (!HAS_PROC) return psRows().flatMap(row => (row.pgid === pgid && !row.state.startsWith('Z') ? [row.pid] : []));
  return readdirSync('/proc')
    .filter(entry => /^\d+$/.test(entry))
    .filter(entry => {
      const fields = statFields(entry);
      return fields !== undefined && Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X';
    })
    .map(Number);
}

/** SIGKILL the group of every process recorded in home's store, and of every keeper of home still running (test cleanup). */
export async function reapAll(home: string): Promise<void> {
  // Keepers no record names yet (a start cut short by the test's end) would write on into home.
  reapKeepers(home);
  let data: { processes?: Record<string, { pid?: number; pgid?: number; startTicks?: number }> };
  try {
    data = JSON.parse(await readFile(join(home, 'db.json'), 'utf8'));
  } catch {
    return;
  }
  for (const record of Object.values(data.processes ?? {})) {
    const group = record.pgid ?? record.pid ?? 0;
    // Only the keeper recorded: pids wrap around fast here (pid_max 32768), and an ended keeper's
    // pid may now lead another test's process group (a shared hub, once).
    if (group > 1 && record.startTicks !== undefined && readProcessIdentity(group)?.startTicks === record.startTicks) {
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

/** A process manager on home with hub's default caps; its running processes are SIGKILLed when the test ends. */
export function managerIn(home: string) {
  const paths = hubPaths(home);
  const store = openStore(paths);
  const manager = createProcessManager({
    paths,
    store,
    log: silentLogger,
    maxRunning: 64,
    logCapBytes: 50 * 1024 * 1024,
    logReadBytes: 200 * 1024,
    baseCwd: home,
  });
  onTestFinished(async () => {
    for (const record of await manager.list({ status: 'running' }))
      await manager.kill({ reference: record.id, signal: 'SIGKILL', graceMs: 0, remove: false });
    manager.close();
  });
  return { paths, store, manager };
}

/** SIGKILLs a stdio hub (no shutdown of its own) and waits until it is gone. */
export async function killHub(hub: HubSession): Promise<void> {
  const pid = hub.pid ?? 0;
  process.kill(pid, 'SIGKILL');
  await vi.waitFor(() => expect(isAlive(pid)).toBe(false), { timeout: 5_000, interval: 20 });
  await hub.close().catch(() => undefined);
}

/**
 * SIGKILLs a stdio hub and the shared hub it attached to, so no hub of home runs any more (the
 * entry alone is not the hub: its shared hub holds the process manager). Returns the shared
 * hub's pid, undefined when the entry ran the hub itself.
 */
export async function killHubAndShared(hub: HubSession, home: string): Promise<number | undefined> {
  const shared = sharedHubPid(home);
  await killHub(hub);
  if (shared === undefined) return undefined;
  try {
    process.kill(shared, 'SIGKILL');
  } catch {
    // Already gone.
  }
  await vi.waitFor(() => expect(isAlive(shared)).toBe(false), { timeout: 5_000, interval: 20 });
  return shared;
}
