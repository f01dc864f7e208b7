// What `hub status`, `hub stop` and `hub ui` ask of the shared hub over its socket.
import { rmdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../core/logger.js';
import { isSameProcess } from '../core/process-identity.js';
import { reapOrphanGroups } from './children.js';
import type { SharedHubPaths } from './paths.js';
import type { StatusReport, UiReply } from './protocol.js';
import { isLiveHub, readHubRecord, type HubRecord } from './record.js';
import { askToStop, attachSharedHub, tryConnect } from './start.js';

// What `hub status`, `hub stop` and `hub ui` ask of the shared hub over its socket.

/** Writes one hello line and reads what the hub writes until it closes the socket. */
function ask(socket: Socket, hello: object, timeoutMs: number): Promise<string> {
  return new Promise<string>(resolve => {
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.once('close', () => (clearTimeout(timer), resolve(Buffer.concat(chunks).toString('utf8'))));
    socket.write(`${JSON.stringify(hello)}\n`);
  });
}

/** The running shared hub's own report, or its record alone when it does not answer. */
export async function sharedHubStatus(
  paths: SharedHubPaths,
): Promise<{ record: HubRecord; report?: StatusReport } | undefined> {
  const record = readHubRecord(paths.record);
  if (!record || !isLiveHub(record)) return undefined;
  const socket = await tryConnect(record.socket);
  if (!socket) return { record };
  const text = await ask(socket, { hub: 'status' }, 3_000);
  try {
    return { record, report: JSON.parse(text) as StatusReport };
  } catch {
    return { record };
  }
}

/**
 * Stops the shared hub (its sessions and child servers closed, dev processes untouched), and
 * ends child servers a dead hub left. Returns the pid stopped, if one ran.
 */
export async function stopSharedHub(
  paths: SharedHubPaths,
  log: Logger,
  reason = 'hub-mcp stop',
): Promise<number | undefined> {
  const record = readHubRecord(paths.record);
  let stopped: number | undefined;
  if (record && isLiveHub(record)) {
    stopped = record.pid;
    if (!(await askToStop(record.socket, reason, record.pid, 10_000))) {
      // It does not answer: a hung hub is ended by signal (its children are reaped below).
      process.kill(record.pid, 'SIGTERM');
      const deadline = Date.now() + 3_000;
      while (Date.now() < deadline && isSameProcess(record.pid, record.startTicks)) await sleep(25);
      if (isSameProcess(record.pid, record.startTicks)) process.kill(record.pid, 'SIGKILL');
      while (isSameProcess(record.pid, record.startTicks)) await sleep(25);
    }
  }
  const left = readHubRecord(paths.record);
  if (left && !isLiveHub(left)) {
    rmSync(paths.record, { force: true });
    rmSync(left.socket, { force: true });
    // A private folder made for that hub alone (socket-folder.ts), now empty.
    if (left.socket.startsWith(paths.fresh.prefix)) {
      try {
        rmdirSync(dirname(left.socket));
      } catch {
        // Gone already, or something else in it: left alone.
      }
    }
  }
  await reapOrphanGroups(paths.children, log);
  return stopped;
}

/**
 * `hub ui`: the shared hub (started when none runs) serves the dashboard and issues a one-time
 * login; the dashboard then lives as long as that hub.
 */
export async function sharedHubDashboard(
  home: string,
  paths: SharedHubPaths,
  env: NodeJS.ProcessEnv,
  where: { host: string; port: number },
): Promise<UiReply> {
  const attached = await attachSharedHub(home, paths, env);
  if ('reason' in attached) return { hub: 'error', message: `no shared hub could be reached (${attached.reason})` };
  // Loading the dashboard and the process code takes a moment on a busy machine.
  const text = await ask(attached.socket, { hub: 'ui', ...where }, 30_000);
  try {
    return JSON.parse(text) as UiReply;
  } catch {
    return {
      hub: 'error',
      message: 'the shared hub closed the connection without an answer (see its log, logs/hub.log)',
    };
  }
}
