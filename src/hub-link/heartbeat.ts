// How an entry tells a hung shared hub from a busy or sleeping one: a heartbeat line.
import type { Socket } from 'node:net';
import { HEARTBEAT_MS } from './protocol.js';
import { tryConnect } from './start.js';

// How an entry tells a hung shared hub from a busy one (entry.ts): a second connection on which
// the hub writes a line every HEARTBEAT_MS while its event loop runs.

// A hub that has not ticked for this long is taken as hung and ended. Generous: a loaded 2-core
// machine parsing a 10 MB tools/list stalls a hub's event loop for seconds with nothing wrong,
// and ending a busy hub fails every session's calls. A hub that dies is noticed at once (its
// sockets close); only a hung one waits this long.
export const HUNG_MS = 15_000;
// Silence counts only while this entry was awake to hear it: a tick this late means the entry
// (or the whole machine: a laptop's sleep, a frozen container) was stopped, and the hub with it,
// so the hub gets a whole new window. Measured on the monotonic clock: a wall clock jumps.
const LATE_TICK_MS = 4 * HEARTBEAT_MS;

export interface HeartbeatWatch {
  /** Listen to the hub on path (just attached): its window starts now. */
  follow(path: string): void;
  /** The hub is gone: stop listening until the next follow. */
  drop(): void;
  stop(): void;
}

export function watchHeartbeat(options: {
  readonly hungMs: number;
  /** True while there is no hub to judge (attaching, or ended). */
  readonly paused: () => boolean;
  /** The hub said nothing for silentMs of this entry's waking time. */
  readonly onHung: (silentMs: number) => void;
}): HeartbeatWatch {
  const { hungMs, paused } = options;
  let beat: Socket | undefined;
  let path: string | undefined;
  let connecting = false;
  let lastBeat = performance.now();
  let lastTick = performance.now();

  // A heartbeat connection that fails or drops is made again on the next tick: only a hub that
  // is connected and silent counts as hung.
  const connect = async () => {
    if (connecting || path === undefined) return;
    connecting = true;
    const socket = await tryConnect(path);
    connecting = false;
    if (!socket || paused()) return void socket?.destroy();
    beat?.destroy();
    beat = socket;
    lastBeat = performance.now();
    socket.on('error', () => undefined);
    socket.on('data', () => (lastBeat = performance.now()));
    socket.once('close', () => {
      if (beat === socket) beat = undefined;
    });
    socket.write(`${JSON.stringify({ hub: 'heartbeat' })}\n`);
  };

  const judge = () => {
    const silent = performance.now() - lastBeat;
    if (!paused() && silent >= hungMs) options.onHung(silent);
  };
  const timer = setInterval(() => {
    const now = performance.now();
    const late = now - lastTick > LATE_TICK_MS;
    lastTick = now;
    if (paused()) return;
    if (late) lastBeat = now;
    if (!beat) return void connect();
    // Timers run before I/O in a loop turn: a beat that arrived while this tick was due is read
    // first (setImmediate runs after the poll), so a busy entry does not end a hub that spoke.
    if (now - lastBeat >= hungMs) setImmediate(judge);
  }, HEARTBEAT_MS);
  timer.unref();

  const drop = () => {
    beat?.destroy();
    beat = undefined;
  };
  return {
    follow: next => {
      path = next;
      lastBeat = performance.now();
      void connect();
    },
    drop,
    stop: () => {
      clearInterval(timer);
      drop();
    },
  };
}
