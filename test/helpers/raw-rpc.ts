import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { onTestFinished } from 'vitest';
import { SERVER_JS } from './hub.js';
import { noteHubHome } from './shared-hub.js';

type Json = Record<string, unknown>;

/** hub (dist/server.js) driven with raw JSON-RPC lines: every byte it writes is kept, unparsed by any SDK. */
export interface RawHub {
  readonly child: ChildProcess;
  /** Every message hub wrote, in order. */
  readonly received: Json[];
  /** Writes lines as one chunk (a client pipelining several messages). */
  write(...messages: Json[]): void;
  /** The response with this id (waits for it). */
  response(id: number | string): Promise<Json>;
  /** Closes stdin and waits for the exit code. */
  end(): Promise<number | null>;
}

export function spawnRawHub(home: string, env: Record<string, string> = {}): RawHub {
  noteHubHome(home);
  const child = spawn(process.execPath, [SERVER_JS], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      HUB_HOME: home,
      HUB_LOG_LEVEL: 'info',
      // The platform the test run forces (CI's portable pass), as spawnHub passes it.
      ...(process.env.HUB_PLATFORM !== undefined && { HUB_PLATFORM: process.env.HUB_PLATFORM }),
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit');
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  const received: Json[] = [];
  const waiters: Array<() => void> = [];
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => {
    pending += text;
    for (let newline = pending.indexOf('\n'); newline !== -1; newline = pending.indexOf('\n')) {
      received.push(JSON.parse(pending.slice(0, newline)) as Json);
      pending = pending.slice(newline + 1);
    }
    for (const wake of waiters.splice(0)) wake();
  });
  // Its end (exited, stdout read to the end) wakes the waiters too: no line can come after it.
  let closed = false;
  child.once('close', () => {
    closed = true;
    for (const wake of waiters.splice(0)) wake();
  });
  const response = async (id: number | string): Promise<Json> => {
    for (;;) {
      const found = received.find(message => message.id === id && !('method' in message));
      if (found) return found;
      if (closed) throw new Error(`hub exited (${child.exitCode ?? child.signalCode}) before answering request ${id}`);
      await new Promise<void>(resolve => waiters.push(resolve));
    }
  };
  return {
    child,
    received,
    write: (...messages) =>
      child.stdin.write(messages.map(message => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`).join('')),
    response,
    async end() {
      child.stdin.end();
      const [code] = (await exited) as [number | null];
      return code;
    },
  };
}

export const initialize = (
  id: number,
  clientName = 'raw-test',
  protocolVersion = '2025-06-18',
): Json & { id: number } => ({
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: clientName, version: '1.0.0' } },
});
export const initialized: Json = { method: 'notifications/initialized' };
