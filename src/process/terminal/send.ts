// send_input: text and keys typed into a running process, and what it wrote back.
import { closeSync, fstatSync, openSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { HubError } from '../../core/errors.js';
import type { HubPaths } from '../../core/paths.js';
import type { ProcessRecord } from '../../store/schema.js';
import { afterCarriageReturn } from '../logs/ansi.js';
import { stdinOpen, writeInput } from './fifo.js';
import { keyBytes, signalFor } from './keys.js';
import type { LineMatcher } from '../logs/line-match.js';
import { logicalEnd, readLayout } from '../logs/marker.js';
import { readLogSince, type LogSlice } from '../logs/read.js';
import { commandTree } from '../keeper/process-tree.js';
import { inputFifo } from '../keeper/run-files.js';
import { logMatcher, portAccepts } from '../lifecycle/wait-for.js';

const POLL_MS = 10;
// A connect attempt costs more than a log look: the port is tried at most this often.
const PORT_POLL_MS = 100;
// A command that is still starting (or a keeper about to rerun it) opens its stdin within this.
const READER_WAIT_MS = 1_000;

async function readerWithin(record: ProcessRecord, fifo: string, waitMs: number): Promise<boolean> {
  const until = Date.now() + waitMs;
  for (;;) {
    if (stdinOpen(record, fifo)) return true;
    if (Date.now() >= until) return false;
    await sleep(20);
  }
}

export interface SendSpec {
  readonly text?: string | undefined;
  readonly keys?: readonly string[] | undefined;
  readonly pattern?: LineMatcher | undefined;
  /** Return once this port accepts TCP (a server the input started). */
  readonly port?: number | undefined;
  /** Without a pattern or port: return once no output came for this long. */
  readonly idleMs: number;
  readonly timeoutMs: number;
  readonly lines: number;
  readonly raw?: boolean | undefined;
  /** Run once the cursor is taken, before any input (a resize, whose SIGWINCH output counts). */
  readonly before?: (() => Promise<unknown>) | undefined;
}

export type SendReason = 'pattern' | 'port' | 'idle' | 'exited' | 'timeout';

export interface SendOutcome {
  readonly bytesSent: number;
  readonly reason: SendReason;
  readonly waitedMs: number;
  readonly slice: LogSlice;
  /** The cursor the new output starts at. */
  readonly cursor: number;
}

type Step = { readonly bytes: string } | { readonly signal: NodeJS.Signals; readonly key: string };

// Text first, then the keys, in order; adjacent bytes go in one write.
function steps(record: ProcessRecord, spec: SendSpec): Step[] {
  const tty = record.tty !== undefined;
  const out: Step[] = [];
  const push = (bytes: string) => {
    const last = out.at(-1);
    if (last && 'bytes' in last) out[out.length - 1] = { bytes: last.bytes + bytes };
    else out.push({ bytes });
  };
  if (spec.text) push(spec.text);
  (spec.keys ?? []).forEach((key, index) => {
    const signal = tty ? undefined : signalFor(key);
    if (signal) return out.push({ signal, key });
    if (!tty && key === 'C-d')
      throw new HubError(
        'INVALID_INPUT',
        `Field "keys[${index}]": C-d (end of input) needs a terminal; process "${record.id}" has a stdin pipe, which stays open for later input. Start it with tty: true, or kill_process it.`,
      );
    push(keyBytes(key, index, tty));
  });
  return out;
}

function logEnd(file: string): { logical: number; physical: number } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return { logical: 0, physical: 0 };
  }
  try {
    const layout = readLayout(fd, fstatSync(fd).size);
    return { logical: logicalEnd(layout), physical: layout.size };
  } finally {
    closeSync(fd);
  }
}

/** Sends text and keys to a running process and returns what it wrote back. */
export async function sendInput(
  paths: HubPaths,
  record: ProcessRecord,
  spec: SendSpec,
  isRunning: () => boolean,
  maxBytes: number,
  abort: AbortSignal,
): Promise<SendOutcome> {
  const plan = steps(record, spec);
  const fifo = inputFifo(paths, record.id);
  if (plan.some(step => 'bytes' in step) && !(await readerWithin(record, fifo, READER_WAIT_MS)))
    throw new HubError(
      'PROCESS_ENDED',
      `Field "id": process "${record.id}" has closed its stdin (or is waiting to be restarted), so it cannot take input. get_process_logs shows its state.`,
    );
  const start = logEnd(record.logFile);
  const started = Date.now();
  await spec.before?.();
  let bytesSent = 0;
  for (const step of plan) {
    if ('signal' in step) {
      // No terminal to turn the key into a signal: sent to the command's processes (not the keeper).
      for (const pid of commandTree(record.pid)) {
        try {
          process.kill(pid, step.signal);
        } catch {
          // Gone meanwhile.
        }
      }
      continue;
    }
    const bytes = Buffer.from(step.bytes, 'utf8');
    await writeInput(fifo, bytes, Math.max(1, spec.timeoutMs - (Date.now() - started)));
    bytesSent += bytes.length;
  }
  const reason = await settle(record.logFile, start.physical, spec, isRunning, started, abort);
  const slice = readLogSince(record.logFile, {
    cursor: start.logical,
    lines: spec.lines,
    maxBytes,
    raw: spec.raw,
    holdPartialLine: false,
  });
  const lines = spec.raw ? slice.lines : slice.lines.map(afterCarriageReturn);
  return { bytesSent, reason, waitedMs: Date.now() - started, slice: { ...slice, lines }, cursor: start.logical };
}

async function settle(
  logFile: string,
  from: number,
  spec: SendSpec,
  isRunning: () => boolean,
  started: number,
  abort: AbortSignal,
): Promise<SendReason> {
  const look = spec.pattern ? logMatcher(logFile, spec.pattern, from) : undefined;
  const waits = look !== undefined || spec.port !== undefined;
  let size = logEnd(logFile).physical;
  let changedAt = Date.now();
  let portTriedAt = 0;
  for (;;) {
    if (look && (await look()).matched) return 'pattern';
    if (spec.port !== undefined && Date.now() - portTriedAt >= PORT_POLL_MS) {
      portTriedAt = Date.now();
      if (await portAccepts(spec.port)) return 'port';
    }
    const now = Date.now();
    const current = logEnd(logFile).physical;
    if (current !== size) {
      size = current;
      changedAt = now;
    }
    if (!waits && now - changedAt >= spec.idleMs) return 'idle';
    if (!isRunning()) return look && (await look()).matched ? 'pattern' : 'exited';
    if (now - started >= spec.timeoutMs || abort.aborted) return 'timeout';
    await sleep(POLL_MS);
  }
}
