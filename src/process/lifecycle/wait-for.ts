// wait_for: until a port accepts, a pattern shows in the log, the process ends, or time runs out.
import { closeSync, openSync, readSync } from 'node:fs';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterCarriageReturn, stripAnsi } from '../logs/ansi.js';
import type { ProcessRecord } from '../../store/schema.js';
import { compileLinePattern, type LineMatcher } from '../logs/line-match.js';

const POLL_MS = 100;
const CONNECT_TIMEOUT_MS = 500;
const READ_LIMIT_BYTES = 256 * 1024;
const LOOK_BUDGET_BYTES = 16 * 1024 * 1024;
const CARRY_MAX_CHARS = 64 * 1024;

const yieldToEventLoop = (): Promise<void> => new Promise(resolve => setImmediate(resolve));

export type WaitReason = 'port' | 'pattern' | 'exited' | 'timeout';

export interface WaitSpec {
  readonly port?: number | undefined;
  readonly pattern?: LineMatcher | undefined;
  readonly timeoutMs: number;
}

type Ready = NonNullable<ProcessRecord['ready']>;

/** A start's wait as its record keeps it, and back: restart_process waits the same way. */
export const readyOf = (wait: WaitSpec): Ready => ({
  ...(wait.port !== undefined && { port: wait.port }),
  ...(wait.pattern !== undefined && { pattern: wait.pattern.source }),
  timeoutMs: wait.timeoutMs,
});
export const waitOf = (ready: Ready): WaitSpec => ({
  port: ready.port,
  pattern: ready.pattern === undefined ? undefined : compileLinePattern(ready.pattern, 'wait_for.pattern'),
  timeoutMs: ready.timeoutMs,
});

export interface WaitOutcome {
  readonly ready: boolean;
  readonly reason: WaitReason;
  readonly waitedMs: number;
}

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise(resolve => {
    const socket = connect({ host, port });
    const done = (result: boolean) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export const portAccepts = async (port: number): Promise<boolean> =>
  (await accepts('127.0.0.1', port)) || (await accepts('::1', port));

interface LogLook {
  readonly matched: boolean;
  /** False when the look stopped at its budget with more log unread. */
  readonly caughtUp: boolean;
}

// A terminal's lines start with `\r` or rewrite themselves: the text left after the last `\r` is tested too.
function matches(pattern: LineMatcher, line: string): boolean {
  const plain = stripAnsi(line);
  return pattern.test(plain) || (plain.includes('\r') && pattern.test(afterCarriageReturn(plain)));
}

// Reads the log incrementally from where the last look stopped and tests whole lines (and the
// unfinished last one, for prompts that print no newline). Bounded: the unfinished line keeps
// only its last CARRY_MAX_CHARS (a 50 MB `\r` progress bar costs no more than a short line),
// one look reads at most LOOK_BUDGET_BYTES, and it yields to the event loop between chunks, so a
// flood of output never stalls hub's other requests.
export function logMatcher(logFile: string, pattern: LineMatcher, from = 0): () => Promise<LogLook> {
  let offset = from;
  let carry = '';
  const buffer = Buffer.alloc(READ_LIMIT_BYTES);
  return async () => {
    let fd: number;
    try {
      fd = openSync(logFile, 'r');
    } catch {
      return { matched: false, caughtUp: true };
    }
    try {
      for (let looked = 0; looked < LOOK_BUDGET_BYTES; looked += READ_LIMIT_BYTES) {
        const read = readSync(fd, buffer, 0, buffer.length, offset);
        if (read === 0) return { matched: matches(pattern, carry), caughtUp: true };
        offset += read;
        const lines = (carry + buffer.subarray(0, read).toString('utf8')).split('\n');
        carry = lines.pop() ?? '';
        if (carry.length > CARRY_MAX_CHARS) carry = carry.slice(-CARRY_MAX_CHARS);
        if (lines.some(line => matches(pattern, line))) return { matched: true, caughtUp: false };
        await yieldToEventLoop();
      }
      return { matched: matches(pattern, carry), caughtUp: false };
    } finally {
      closeSync(fd);
    }
  };
}

/** Waits until the port accepts TCP, the pattern shows in the log, the process ends, or time runs out. */
/** from: the log offset the pattern is looked for after (a restart's new run). */
export async function waitForReady(
  spec: WaitSpec,
  logFile: string,
  isRunning: () => boolean,
  signal: AbortSignal,
  from = 0,
): Promise<WaitOutcome> {
  const started = Date.now();
  const look = spec.pattern
    ? logMatcher(logFile, spec.pattern, from)
    : () => Promise.resolve({ matched: false, caughtUp: true });
  const outcome = (ready: boolean, reason: WaitReason): WaitOutcome => ({
    ready,
    reason,
    waitedMs: Date.now() - started,
  });
  const timedOut = () => Date.now() - started >= spec.timeoutMs || signal.aborted;
  for (;;) {
    if ((await look()).matched) return outcome(true, 'pattern');
    if (spec.port !== undefined && (await portAccepts(spec.port))) return outcome(true, 'port');
    if (!isRunning()) {
      // Ended: read what it wrote to the end (or until time runs out) before saying so.
      for (;;) {
        const last = await look();
        if (last.matched) return outcome(true, 'pattern');
        if (last.caughtUp) return outcome(false, 'exited');
        if (timedOut()) return outcome(false, 'timeout');
      }
    }
    if (timedOut()) return outcome(false, 'timeout');
    await sleep(Math.min(POLL_MS, Math.max(1, spec.timeoutMs - (Date.now() - started))));
  }
}
