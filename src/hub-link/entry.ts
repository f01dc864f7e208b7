import type { Socket } from 'node:net';
import { HUB_VERSION } from '../core/version.js';
import { isLiveHub, readHubRecord } from './record.js';
import type { SharedHubPaths } from './paths.js';
import { HEARTBEAT_MS } from './protocol.js';
import { attachSharedHub, tryConnect } from './start.js';
import { clientWriter } from './client-writer.js';
import { NEWLINE, linesOf, responseId, splitLines, type Id } from './lines.js';

// The stdio entry's pipe to the shared hub (docs/shared-hub.md). Bytes go through in whole lines
// (a hub that dies mid-line must not leave half a message with the client); the entry reads
// only enough of each line to know the requests in flight, so they can be failed with a
// retryable error when the hub dies, and the client's initialize, to replay to the next hub.

export interface EntryHandOff {
  readonly replay: Buffer;
  readonly answered: Set<Id>;
  readonly ended: boolean;
  readonly listed?: string;
}

export interface EntryOptions {
  readonly home: string;
  readonly paths: SharedHubPaths;
  readonly env: NodeJS.ProcessEnv;
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly handOff: EntryHandOff | undefined;
  /** Said once when the shared hub cannot be used (before anything was sent, or after). */
  readonly note: (message: string) => void;
  /** Silence after which the hub is taken as hung (HUNG_MS unless a test shortens it). */
  readonly hungMs?: number | undefined;
}

/** How the entry ended: the client went away, or the shared hub cannot be used (run in-process). */
export type EntryEnd = { kind: 'ended' } | { kind: 'fallback'; reason: string; handOff: EntryHandOff };

// A hub that has not ticked for this long is taken as hung and ended (heartbeats come every
// 500 ms). Generous: a loaded 2-core machine parsing a 10 MB tools/list stalls a hub's event loop
// for seconds with nothing wrong, and ending a busy hub fails every session's calls. A hub that
// dies is noticed at once (its sockets close); only a hung one waits this long.
export const HUNG_MS = 15_000;
// Silence counts only while this entry was awake to hear it: a tick this late means the entry
// (or the whole machine: a laptop's sleep, a frozen container) was stopped, and the hub with it,
// so the hub gets a whole new window. Measured on the monotonic clock: a wall clock jumps.
const LATE_TICK_MS = 4 * HEARTBEAT_MS;
const RESTARTED = 'hub restarted; call again';

export function runEntry(options: EntryOptions): Promise<EntryEnd> {
  const { home, paths, env, stdin, stdout, handOff } = options;
  const inFlight = new Map<string, Id>();
  const lanesAnswered = new Set<Id>(handOff?.answered ?? []);
  let initLines: Buffer[] = [];
  let initId: Id | undefined;
  let clientTail: Buffer = Buffer.alloc(0);
  let hubTail: Buffer = Buffer.alloc(0);
  let queued: Buffer[] = [];
  let socket: Socket | undefined;
  let heartbeat: Socket | undefined;
  let hubPid: number | undefined;
  const hungMs = options.hungMs ?? HUNG_MS;
  let lastBeat = performance.now();
  let lastTick = performance.now();
  let stdinEnded = handOff?.ended ?? false;
  let attaching = false;
  let finish!: (end: EntryEnd) => void;
  const finished = new Promise<EntryEnd>(resolve => (finish = resolve));
  let done = false;

  // Client → hub: note requests (in flight) and the initialize to replay.
  const noteClientLines = (whole: Buffer) => {
    for (const line of linesOf(whole)) {
      let message: { id?: unknown; method?: unknown } | null;
      try {
        message = JSON.parse(line) as typeof message;
      } catch {
        continue; // the hub answers a line that is not JSON
      }
      // Anything but one request or notification (a batch, null, a bad id) is the hub's to refuse.
      if (typeof message !== 'object' || message === null || typeof message.method !== 'string') continue;
      if (message.id !== undefined && typeof message.id !== 'string' && typeof message.id !== 'number') continue;
      if (message.method === 'initialize' && message.id !== undefined) {
        initLines = [Buffer.from(`${line}\n`)];
        initId = message.id as Id;
      } else if (message.method === 'notifications/initialized') initLines.push(Buffer.from(`${line}\n`));
      const id = message.id as Id | undefined;
      if (id !== undefined && !lanesAnswered.delete(id)) inFlight.set(JSON.stringify(id), id);
    }
  };
  const toHub = (whole: Buffer) => {
    if (socket && !attaching) socket.write(whole);
    else queued.push(whole);
  };
  const onClientData = (chunk: Buffer) => {
    const split = splitLines(clientTail, chunk);
    clientTail = split.tail;
    if (!split.whole) return;
    noteClientLines(split.whole);
    toHub(split.whole);
  };

  // Everything to the client, in order (client-writer.ts keeps the gap after a progress line).
  const { write, lines: toClient } = clientWriter(stdout);

  // Hub → client: drop its welcome line, forget answered requests, pass whole lines on.
  let welcomed = false;
  const onHubData = (chunk: Buffer) => {
    const split = splitLines(hubTail, chunk);
    hubTail = split.tail;
    let whole = split.whole;
    if (!whole) return;
    if (!welcomed) {
      welcomed = true;
      whole = whole.subarray(whole.indexOf(NEWLINE) + 1);
      if (whole.length === 0) return;
    }
    if (inFlight.size > 0)
      for (const line of linesOf(whole)) {
        const id = responseId(line);
        if (id !== undefined) inFlight.delete(JSON.stringify(id));
      }
    toClient(whole);
  };

  const end = (result: EntryEnd) => {
    if (done) return;
    done = true;
    clearInterval(watch);
    heartbeat?.destroy();
    stdin.off('data', onClientData);
    finish(result);
  };

  let hubPath: string | undefined;
  let beatConnecting = false;
  // A heartbeat connection that fails or drops is made again on the next tick: only a hub that
  // is connected and silent counts as hung.
  const startHeartbeat = async () => {
    if (beatConnecting || hubPath === undefined) return;
    beatConnecting = true;
    const beat = await tryConnect(hubPath);
    beatConnecting = false;
    if (!beat || attaching || done) return void beat?.destroy();
    heartbeat?.destroy();
    heartbeat = beat;
    lastBeat = performance.now();
    beat.on('error', () => undefined);
    beat.on('data', () => (lastBeat = performance.now()));
    beat.once('close', () => {
      if (heartbeat === beat) heartbeat = undefined;
    });
    beat.write(`${JSON.stringify({ hub: 'heartbeat' })}\n`);
  };

  const wire = (connected: Socket, path: string, answered: Id[], replay: Buffer[], first?: { listed?: string }) => {
    socket = connected;
    welcomed = false;
    hubTail = Buffer.alloc(0);
    hubPid = readHubRecord(paths.record)?.pid;
    const hello = {
      hub: 'session',
      version: HUB_VERSION,
      pid: process.pid,
      cwd: process.cwd(),
      env: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined)),
      answered,
      // The first attach says what the cold-start lane did (the hub logs it); a reattach does not.
      ...(first && { coldStartAnswered: answered.length }),
      ...(first?.listed !== undefined && { listed: first.listed }),
    };
    connected.write(`${JSON.stringify(hello)}\n`);
    for (const part of replay) connected.write(part);
    connected.on('data', onHubData);
    connected.on('error', () => undefined);
    connected.once('close', () => {
      if (socket === connected) void hubGone(`the shared hub (pid ${hubPid ?? '?'}) closed the connection`);
    });
    hubPath = path;
    lastBeat = performance.now();
    void startHeartbeat();
  };

  // The hub died (or hung): fail what it had, find or start the next one, replay initialize.
  const hubGone = async (why: string) => {
    if (done || attaching) return;
    attaching = true;
    const old = socket;
    socket = undefined;
    old?.destroy();
    heartbeat?.destroy();
    heartbeat = undefined;
    if (stdinEnded) return end({ kind: 'ended' });
    const failed = [...inFlight.values()];
    inFlight.clear();
    hubTail = Buffer.alloc(0);
    for (const id of failed)
      write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: RESTARTED } })}\n`);
    options.note(`${why}; attaching to a new shared hub`);
    const next = await attachSharedHub(home, paths, env);
    if ('reason' in next) {
      // Nothing more can come from a hub: run in-process from here, initialize replayed.
      const pending = Buffer.concat([...initLines, ...queued, clientTail]);
      stdin.pause();
      return end({
        kind: 'fallback',
        reason: next.reason,
        handOff: { replay: pending, answered: new Set(initId === undefined ? [] : [initId]), ended: stdinEnded },
      });
    }
    wire(next.socket, next.path, initId === undefined ? [] : [initId], initLines);
    attaching = false;
    const waiting = queued;
    queued = [];
    for (const part of waiting) next.socket.write(part);
    // The new hub may list other tools (a child that failed to start before, an install since).
    if (initId !== undefined) write('{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n');
  };

  // Hung, not dead: end it, or the next entry would connect to it again.
  const endHungHub = () => {
    if (attaching || !socket || performance.now() - lastBeat < hungMs) return;
    const record = readHubRecord(paths.record);
    if (record && record.pid === hubPid && isLiveHub(record)) {
      try {
        process.kill(record.pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    void hubGone(
      `the shared hub (pid ${hubPid ?? '?'}) did not answer for ${Math.round(performance.now() - lastBeat)} ms`,
    );
  };
  const watch = setInterval(() => {
    const now = performance.now();
    const late = now - lastTick > LATE_TICK_MS;
    lastTick = now;
    if (attaching || !socket) return;
    if (late) lastBeat = now;
    if (!heartbeat) return void startHeartbeat();
    // Timers run before I/O in a loop turn: a beat that arrived while this tick was due is read
    // first (setImmediate runs after the poll), so a busy entry does not end a hub that spoke.
    if (now - lastBeat >= hungMs) setImmediate(endHungHub);
  }, HEARTBEAT_MS);
  watch.unref();

  void (async () => {
    const replay = handOff?.replay ?? Buffer.alloc(0);
    const laneAnswered = [...lanesAnswered];
    const split = splitLines(Buffer.alloc(0), replay);
    clientTail = split.tail;
    if (split.whole) noteClientLines(split.whole);
    // The client left during the cold start with every request answered: nothing to attach for.
    if (stdinEnded && inFlight.size === 0) return end({ kind: 'ended' });
    const first = await attachSharedHub(home, paths, env);
    if ('reason' in first) {
      clearInterval(watch);
      done = true;
      finish({
        kind: 'fallback',
        reason: first.reason,
        handOff: handOff ?? { replay: Buffer.alloc(0), answered: new Set(), ended: false },
      });
      return;
    }
    wire(first.socket, first.path, laneAnswered, split.whole ? [split.whole] : [], {
      ...(handOff?.listed !== undefined && { listed: handOff.listed }),
    });
    stdin.on('data', onClientData);
    const onEnd = () => {
      if (stdinEnded && socket?.writableEnded) return;
      stdinEnded = true;
      // Whatever the client wrote last goes first; then the hub sees the end and closes the session.
      if (clientTail.length) toHub(Buffer.concat([clientTail, Buffer.from('\n')]));
      socket?.end();
      // The hub ends its side once the session has closed; bounded as the in-process hub's close.
      setTimeout(() => end({ kind: 'ended' }), 5_000).unref();
      socket?.once('close', () => end({ kind: 'ended' }));
    };
    if (stdinEnded) onEnd();
    else {
      stdin.once('end', onEnd);
      stdin.once('close', onEnd);
      stdin.resume();
    }
  })();

  return finished;
}
