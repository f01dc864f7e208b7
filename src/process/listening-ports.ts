// The TCP ports a process group listens on, for `hub-mcp ps` (Linux /proc only).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { liveProcesses } from '../core/process-group.js';

// The TCP ports a process group listens on, for `hub-mcp ps`: the LISTEN sockets of
// /proc/net/tcp{,6} whose inodes a member of the group holds open. Linux only (elsewhere, or
// when /proc cannot be read, none); bounded: at most MAX_FDS descriptors read per member.

const LISTEN = '0A';
const MAX_FDS = 4096;

function listeningSockets(): Map<string, number> {
  const ports = new Map<string, number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const row of text.split('\n').slice(1)) {
      const fields = row.trim().split(/\s+/);
      const local = fields[1];
      if (fields[3] !== LISTEN || local === undefined || fields[9] === undefined) continue;
      ports.set(fields[9], Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16));
    }
  }
  return ports;
}

function socketInodes(pid: number): string[] {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`).slice(0, MAX_FDS);
  } catch {
    return [];
  }
  const inodes: string[] = [];
  for (const fd of fds) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (target.startsWith('socket:[')) inodes.push(target.slice(8, -1));
    } catch {
      // closed meanwhile
    }
  }
  return inodes;
}

/** For each process group id: the sorted ports its live members listen on. */
export function listeningPortsOf(pgids: readonly number[]): Map<number, number[]> {
  const result = new Map<number, number[]>(pgids.map(pgid => [pgid, []]));
  if (process.platform !== 'linux' || pgids.length === 0) return result;
  const sockets = listeningSockets();
  if (sockets.size === 0) return result;
  const wanted = new Set(pgids);
  for (const member of liveProcesses(identity => wanted.has(identity.pgid))) {
    const ports = result.get(member.pgid)!;
    for (const inode of socketInodes(member.pid)) {
      const port = sockets.get(inode);
      if (port !== undefined && !ports.includes(port)) ports.push(port);
    }
  }
  for (const ports of result.values()) ports.sort((a, b) => a - b);
  return result;
}
