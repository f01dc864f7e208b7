// Forked store writers and a polling reader (test/fixtures/store-*.mjs) for the stress tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { onTestFinished } from 'vitest';
import { fixture } from '../helpers/hub.js';

/** What a writer that finished reports: latencies (ms) and when its first/last update ran. */
export interface Done {
  latencies: number[];
  firstAt: number;
  lastAt: number;
}

export interface Writer {
  readonly child: ChildProcess;
  readonly tag: string;
  /** Keys whose update resolved (printed after the fact). */
  readonly acked: string[];
  /** Calls back after each acknowledged change, with the count so far. */
  onAck(callback: (count: number) => void): void;
  /** Resolves with the exit code/signal and, when it finished, the per-update latencies. */
  readonly ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; done?: Done }>;
}

const started = new Set<ChildProcess>();

function track(child: ChildProcess): void {
  if (started.size === 0) {
    onTestFinished(() => {
      for (const each of started) if (each.exitCode === null && each.signalCode === null) each.kill('SIGKILL');
      started.clear();
    });
  }
  started.add(child);
}

export function startWriter(home: string, tag: string, count: number): Writer {
  const child = spawn(process.execPath, [fixture('store-writer.mjs'), home, tag, String(count)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child);
  const acked: string[] = [];
  const listeners: ((count: number) => void)[] = [];
  let done: Done | undefined;
  let stderr = '';
  child.stderr?.on('data', chunk => (stderr += chunk));
  createInterface({ input: child.stdout! }).on('line', line => {
    if (line.startsWith('ack ')) {
      acked.push(line.slice(4));
      for (const listener of listeners) listener(acked.length);
    } else if (line.startsWith('done ')) done = JSON.parse(line.slice(5)) as Done;
  });
  const ended = once(child, 'close').then(([code, signal]) => {
    if (code !== 0 && signal === null) throw new Error(`writer ${tag} exited ${code}: ${stderr}`);
    return { code: code as number | null, signal: signal as NodeJS.Signals | null, ...(done ? { done } : {}) };
  });
  return { child, tag, acked, onAck: callback => listeners.push(callback), ended };
}

export interface Reader {
  /** Closes its stdin and returns what it saw. */
  stop(): Promise<{ reads: number; missing: number; bad: string[] }>;
}

export async function startReader(file: string): Promise<Reader> {
  const child = spawn(process.execPath, [fixture('store-reader.mjs'), file], { stdio: ['pipe', 'pipe', 'inherit'] });
  track(child);
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  await lines.next(); // "ready"
  return {
    async stop() {
      child.stdin!.end();
      const { value } = await lines.next();
      return JSON.parse(String(value)) as { reads: number; missing: number; bad: string[] };
    },
  };
}

/** p-th percentile (0–100) of values, in the values' unit. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}
