import { hubPaths } from '../../dist/core/paths.js';
import { openStore } from '../../dist/store/store.js';
import { writeToolCache } from '../../dist/store/tool-cache.js';
import { EVERYTHING_JS } from './mcp.mjs';

// Seeding a bench HUB_HOME through hub's own store module, so records have the shape hub reads.

export const storeOf = home => openStore(hubPaths(home));

/** A command-mode server record for server-everything, with its tool list cached (addServers writes it to tools/). */
export function everythingRecord(name, order, tools) {
  const now = new Date().toISOString();
  return {
    name,
    command: process.execPath,
    args: [EVERYTHING_JS, 'stdio'],
    env: {},
    mode: 'command',
    installedAt: now,
    order,
    autoStart: false,
    tools,
    toolsUpdatedAt: now,
  };
}

/** Saves the records; their cached tools go to HUB_HOME/tools/<name>.json, as hub keeps them. */
export async function addServers(home, records) {
  await storeOf(home).update(data => {
    for (const { tools, ...record } of records) {
      if (tools?.length) writeToolCache(hubPaths(home), record.name, tools, record.toolsUpdatedAt);
      data.servers[record.name] = record;
    }
  });
}

/** An ended process record (never running): what list_processes mostly sees on a busy machine. */
export function exitedRecord(home, id, index) {
  const started = new Date(Date.now() - 3_600_000 - index * 1000);
  return {
    id,
    name: `old-${index}`,
    command: 'npm',
    args: ['run', 'dev', '--', '--port', String(3000 + (index % 1000))],
    cwd: '/tmp',
    envKeys: ['NODE_ENV'],
    tags: index % 3 === 0 ? ['web'] : [],
    ports: [3000 + (index % 1000)],
    pid: 4_000_000 + index,
    status: 'exited',
    startedAt: started.toISOString(),
    endedAt: new Date(started.getTime() + 60_000).toISOString(),
    exitCode: 0,
    logFile: hubPaths(home).processLog(id),
  };
}

export async function addProcesses(home, records) {
  await storeOf(home).update(data => {
    for (const record of records) data.processes[record.id] = record;
  });
}

export const paths = home => hubPaths(home);
