import { readFileSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { descendants, startTicksOf } from './proc.mjs';

// Everything the bench creates is registered here and removed on success, error, signal or exit:
// temp dirs (HUB_HOMEs, big logs), async closers (clients), and every process the bench started.
const dirs = new Set();
const homes = new Set();
const closers = new Set();

export async function tempDir(prefix = 'hub-bench-') {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  dirs.add(dir);
  return dir;
}

/** A fresh HUB_HOME: its recorded start_process groups are killed at cleanup, then it is removed. */
export async function tempHome() {
  const home = await tempDir('hub-bench-home-');
  homes.add(home);
  return home;
}

export function onCleanup(close) {
  closers.add(close);
  return () => closers.delete(close);
}

export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
  dirs.delete(dir);
  homes.delete(dir);
}

const kill = (target, signal = 'SIGKILL') => {
  try {
    process.kill(target, signal);
  } catch {
    // already gone
  }
};

// Only the very process recorded: pids wrap around fast on a busy machine (pid_max is 32768 here),
// and a recorded pid that ended may now be someone else's (another test's shared hub, once).
const isRecorded = (pid, startTicks) => pid > 1 && startTicks !== undefined && startTicksOf(pid) === startTicks;

// Detached processes (start_process keepers, child MCP servers in their own groups) outlive
// their parent: kill every group recorded in a bench HUB_HOME, and every descendant of ours.
function killEverything() {
  for (const home of homes) {
    try {
      const data = JSON.parse(readFileSync(join(home, 'db.json'), 'utf8'));
      for (const record of Object.values(data.processes ?? {})) {
        const group = record.pgid ?? record.pid ?? 0;
        if (record.status === 'running' && isRecorded(group, record.startTicks)) kill(-group);
      }
    } catch {
      // no store
    }
    // A shared hub (detached, not our descendant) and the child server groups it recorded.
    try {
      const hub = JSON.parse(readFileSync(join(home, 'hub.json'), 'utf8'));
      if (isRecorded(hub.pid, hub.startTicks)) kill(hub.pid);
    } catch {
      // none ran
    }
    try {
      for (const group of JSON.parse(readFileSync(join(home, 'hub.children.json'), 'utf8')).groups ?? [])
        if (isRecorded(group.pid, group.startTicks)) kill(-group.pid);
    } catch {
      // none recorded
    }
  }
  const tree = descendants(process.pid);
  for (const pid of tree) kill(pid);
}

let done = false;
export async function cleanupAll() {
  for (const close of [...closers].reverse()) {
    await Promise.race([
      Promise.resolve()
        .then(close)
        .catch(() => undefined),
      new Promise(r => setTimeout(r, 3000).unref()),
    ]);
  }
  closers.clear();
  cleanupSync();
}

export function cleanupSync() {
  if (done) return;
  done = true;
  killEverything();
  for (const dir of [...dirs]) rmSync(dir, { recursive: true, force: true });
  dirs.clear();
}

/** Last resort: clean on exit and on signals, even when a section throws or the run is interrupted. */
export function installExitHandlers() {
  process.on('exit', cleanupSync);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      process.stderr.write(`\nbench: ${signal}, cleaning up\n`);
      cleanupSync();
      process.exit(130);
    });
  }
}
