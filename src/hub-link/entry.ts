// The stdio entry's pipe to the shared hub: whole lines, in-flight requests, replay to the next hub.
import type { Socket } from 'node:net';
import { HUB_VERSION } from '../core/version.js';
import { isLiveHub, readHubRecord } from './record.js';
import type { SharedHubPaths } from './paths.js';
import { HUNG_MS, watchHeartbeat } from './heartbeat.js';
import { attachSharedHub } from './start.js';
import { clientWriter } from './client-writer.js';
import { NEWLINE, isStartProcess, linesOf, refusalIn, responseId, splitLines, type Id } from './lines.js';
import { unreadLines } from './unread.js';

// docs/shared-hub.md. Whole lines (a hub that dies mid-line must not leave half a message with
// the client); the entry reads only enough of each line to know the requests in flight (failed
// with a retryable error when the hub dies) and the client's initialize, to replay.

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
  /** What the cold-start lane read and answered: taken once attached (or fallen back); the lane answers until then. */
  readonly handOff: () => EntryHandOff | undefined;
  /** stdin ended during the cold start: the hand-off is taken at once (nothing more to answer). */
  readonly laneEnded?: boolean;
  /** Said once when the shared hub cannot be used (before anything was sent, or after). */
  readonly note: (message: string) => void;
  /** Silence after which the hub is taken as hung (HUNG_MS unless a test shortens it). */
  readonly hungMs?: number | undefined;
}

/** How the entry ended: the client went away, or the shared hub cannot be used (run in-process). */
export type EntryEnd = { kind: 'ended' } | { kind: 'fallback'; reason: string; handOff: EntryHandOff };

const RESTARTED = 'hub restarted; call again';

export function runEntry(options: EntryOptions): Promise<EntryEnd> {
  const { home, paths, env, stdin, stdout } = options;
  const inFlight = new Map<string, Id>();
  // The in-flight start_process lines, by the same key: sent again rather than failed.
  const resend = new Map<string, Buffer>();
  let handOff: EntryHandOff | undefined;
  let lanesAnswered = new Set<Id>();
  let initLines: Buffer[] = [];
  let initId: Id | undefined;
  let clientTail: Buffer = Buffer.alloc(0);
  let hubTail: Buffer = Buffer.alloc(0);
  let queued: Buffer[] = [];
  let socket: Socket | undefined;
  let hubPid: number | undefined;
  let stdinEnded = false;
  let attaching = false;
  let finish!: (end: EntryEnd) => void;
  const finished = new Promise<EntryEnd>(resolve => (finish = resolve));
  let done = false;
  // Hung, not dead: end it, or the next entry would connect to it again.
  const heartbeat = watchHeartbeat({
    hungMs: options.hungMs ?? HUNG_MS,
    paused: () => attaching || !socket || done,
    onHung: silentMs => {
      const record = readHubRecord(paths.record);
      if (record && record.pid === hubPid && isLiveHub(record)) {
        try {
          process.kill(record.pid, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }
      void hubGone(`the shared hub (pid ${hubPid ?? '?'}) did not answer for ${Math.round(silentMs)} ms`);
    },
  });

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
      if (id !== undefined && !lanesAnswered.delete(id)) {
        inFlight.set(JSON.stringify(id), id);
        if (isStartProcess(message)) resend.set(JSON.stringify(id), Buffer.from(`${line}\n`));
      }
    }
  };
  // What went to a hub that has not welcomed this entry yet (it read none of it): all of it goes to
  // the in-process hub if that hub refuses the hello; if it closes, what followed the replay goes
  // to the next hub (unread.ts).
  let unwelcomed: { sent: Buffer[]; answered: Id[]; replayed: number; listed?: string } | undefined;
  let refusal: string | undefined;
  const send = (to: Socket, part: Buffer) => {
    to.write(part);
    unwelcomed?.sent.push(part);
  };
  const toHub = (whole: Buffer) => {
    if (socket && !attaching) send(socket, whole);
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

  // Hub → client: drop its welcome line (a refusal instead ends the link), forget answered
  // requests, pass whole lines on.
  let welcomed = false;
  const onHubData = (chunk: Buffer) => {
    const split = splitLines(hubTail, chunk);
    hubTail = split.tail;
    let whole = split.whole;
    if (!whole || refusal !== undefined) return;
    if (!welcomed) {
      const first = whole.toString('utf8', 0, whole.indexOf(NEWLINE));
      refusal = refusalIn(first);
      if (refusal !== undefined) return;
      welcomed = true;
      unwelcomed = undefined;
      whole = whole.subarray(whole.indexOf(NEWLINE) + 1);
      if (whole.length === 0) return;
    }
    if (inFlight.size > 0)
      for (const line of linesOf(whole)) {
        const id = responseId(line);
        if (id !== undefined) inFlight.delete(JSON.stringify(id));
        if (id !== undefined) resend.delete(JSON.stringify(id));
      }
    toClient(whole);
  };

  const end = (result: EntryEnd) => {
    if (done) return;
    done = true;
    heartbeat.stop();
    stdin.off('data', onClientData);
    finish(result);
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
    unwelcomed = { sent: [], answered, replayed: replay.length, ...first };
    refusal = undefined;
    for (const part of replay) send(connected, part);
    connected.on('data', onHubData);
    connected.on('error', () => undefined);
    connected.once('close', () => {
      if (socket === connected) void hubGone(`the shared hub (pid ${hubPid ?? '?'}) closed the connection`);
    });
    heartbeat.follow(path);
  };

  // The hub died (or hung): fail what it had, find or start the next one, replay initialize.
  const hubGone = async (why: string) => {
    if (done || attaching) return;
    attaching = true;
    const old = socket;
    socket = undefined;
    old?.destroy();
    heartbeat.drop();
    if (refusal !== undefined && unwelcomed) {
      // Refused (a hello it cannot read): nothing sent reached it, so the in-process hub takes it
      // all, with no call failed; and no other shared hub is tried, as it would refuse the same.
      stdin.pause();
      const { sent, answered, listed } = unwelcomed;
      return end({
        kind: 'fallback',
        reason: `the shared hub refused this entry (${refusal})`,
        handOff: {
          replay: Buffer.concat([...sent, ...queued, clientTail]),
          answered: new Set(answered),
          ended: stdinEnded,
          ...(listed !== undefined && { listed }),
        },
      });
    }
    if (stdinEnded) return end({ kind: 'ended' });
    const unread = unreadLines(unwelcomed?.sent.slice(unwelcomed.replayed) ?? [], resend);
    unwelcomed = undefined;
    queued = [...unread.lines, ...queued];
    const failed = [...inFlight].filter(([key]) => !resend.has(key) && !unread.keys.has(key));
    for (const [key] of failed) inFlight.delete(key);
    const again = [...resend.values()];
    hubTail = Buffer.alloc(0);
    for (const [, id] of failed)
      write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: RESTARTED } })}\n`);
    options.note(`${why}; attaching to a new shared hub`);
    const next = await attachSharedHub(home, paths, env);
    if ('reason' in next) {
      // Nothing more can come from a hub: run in-process from here, initialize replayed.
      const pending = Buffer.concat([...initLines, ...again, ...queued, clientTail]);
      stdin.pause();
      return end({
        kind: 'fallback',
        reason: next.reason,
        handOff: { replay: pending, answered: new Set(initId === undefined ? [] : [initId]), ended: stdinEnded },
      });
    }
    wire(next.socket, next.path, initId === undefined ? [] : [initId], [...initLines, ...again]);
    attaching = false;
    const waiting = queued;
    queued = [];
    for (const part of waiting) send(next.socket, part);
    // The new hub may list other tools (a child that failed to start before, an install since).
    if (initId !== undefined) write('{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n');
  };

  // The lane's reading, taken once: the requests it left unanswered are in flight from here.
  let taken = false;
  let replayed: Buffer | undefined;
  let laneAnswered: Id[] = [];
  const take = () => {
    if (taken) return;
    taken = true;
    handOff = options.handOff();
    lanesAnswered = new Set<Id>(handOff?.answered ?? []);
    laneAnswered = [...lanesAnswered];
    stdinEnded = handOff?.ended ?? false;
    const split = splitLines(Buffer.alloc(0), handOff?.replay ?? Buffer.alloc(0));
    clientTail = split.tail;
    if (split.whole) noteClientLines(split.whole);
    replayed = split.whole;
  };

  void (async () => {
    if (options.laneEnded) take();
    // The client left during the cold start with every request answered: nothing to attach for.
    if (stdinEnded && inFlight.size === 0) return end({ kind: 'ended' });
    const first = await attachSharedHub(home, paths, env);
    take();
    if ('reason' in first) {
      heartbeat.stop();
      done = true;
      finish({
        kind: 'fallback',
        reason: first.reason,
        handOff: handOff ?? { replay: Buffer.alloc(0), answered: new Set(), ended: false },
      });
      return;
    }
    wire(first.socket, first.path, laneAnswered, replayed ? [replayed] : [], {
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
