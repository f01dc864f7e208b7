import { closeSync, openSync, readSync } from 'node:fs';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { stripAnsi } from './ansi.js';

const POLL_MS = 100;
const CONNECT_TIMEOUT_MS = 500;
const READ_LIMIT_BYTES = 256 * 1024;

export type WaitReason = 'port' | 'pattern' | 'exited' | 'timeout';

export interface WaitSpec {
  readonly port?: number | undefined;
  readonly pattern?: RegExp | undefined;
  readonly timeoutMs: number;
}

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

const portAccepts = async (port: number): Promise<boolean> => (await accepts('127.0.0.1', port)) || (await accepts('::1', port));

// Reads the log incrementally from where the last look stopped and tests whole lines (and the
// unfinished last one, for prompts that print no newline).
function logMatcher(logFile: string, pattern: RegExp): () => boolean {
  let offset = 0;
  let carry = '';
  const buffer = Buffer.alloc(READ_LIMIT_BYTES);
  return () => {
    let fd: number;
    try {
      fd = openSync(logFile, 'r');
    } catch {
      return false;
    }
    try {
      for (;;) {
        const read = readSync(fd, buffer, 0, buffer.length, offset);
        if (read === 0) break;
        offset += read;
        const lines = (carry + buffer.subarray(0, read).toString('utf8')).split('\n');
        carry = lines.pop() ?? '';
        if (lines.some(line => pattern.test(stripAnsi(line)))) return true;
      }
      return pattern.test(stripAnsi(carry));
    } finally {
      closeSync(fd);
    }
  };
}

/** Waits until the port accepts TCP, the pattern shows in the log, the process ends, or time runs out. */
export async function waitForReady(spec: WaitSpec, logFile: string, isRunning: () => boolean, signal: AbortSignal): Promise<WaitOutcome> {
  const started = Date.now();
  const matches = spec.pattern ? logMatcher(logFile, spec.pattern) : () => false;
  const outcome = (ready: boolean, reason: WaitReason): WaitOutcome => ({ ready, reason, waitedMs: Date.now() - started });
  for (;;) {
    if (matches()) return outcome(true, 'pattern');
    if (spec.port !== undefined && (await portAccepts(spec.port))) return outcome(true, 'port');
    if (!isRunning()) return matches() ? outcome(true, 'pattern') : outcome(false, 'exited');
    if (Date.now() - started >= spec.timeoutMs || signal.aborted) return outcome(false, 'timeout');
    await sleep(Math.min(POLL_MS, Math.max(1, spec.timeoutMs - (Date.now() - started))));
  }
}
