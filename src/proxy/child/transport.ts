// The stdio transport to a child in its own process group, with the fast lane's hooks.
import { spawn, type ChildProcess } from 'node:child_process';
import { childGroupEnded, childGroupStarted } from '../../core/child-groups.js';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { JsonLineReader, corkedWriter } from '../../wire/json-lines.js';
import type { ServerLog } from './server-log.js';
import { cut } from '../../core/clip.js';

export interface ChildSpawnOptions {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd?: string | undefined;
  /** Where stderr goes, drained continuously. */
  log: ServerLog;
  /** Wait after ending stdin before SIGTERM, and after SIGTERM before SIGKILL. */
  graceMs?: number;
  /** stdio pipes after stdin/stdout/stderr, and what is done with them once it runs (sandbox/network.ts). */
  extraStdio?: number;
  onSpawn?: ((child: ChildProcess, log: (line: string) => void) => void) | undefined;
}

// Lines of stdout that are not JSON-RPC copied to the log per run: enough to show what it printed.
const NOISE_LINES_LOGGED = 200;
const NOISE_LINE_CHARS = 1000;

const sleep = (ms: number) => new Promise<void>(resolve => setTimeout(resolve, ms).unref());

function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * stdio transport to a child MCP server in its own process group, so close() reaches every
 * descendant (an npx or shell launcher included), which the SDK's StdioClientTransport does not.
 * Lines are JSON.parse'd only: the Protocol classifies messages itself, and `interceptLine` and
 * `intercept` let the proxy's fast lane take its own responses (unparsed when it can) before the
 * SDK sees them.
 */
export class ChildProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  // A progress notification was handed to the SDK in this turn (see the reader below).
  #progressJustIn = false;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Return true to consume a message (the fast lane's responses and progress). */
  intercept?: (message: Record<string, unknown>) => boolean;
  /** Sees each line before it is parsed; return true to consume it (fast-lane results, unparsed). */
  interceptLine?: (line: string) => boolean;
  /** The child itself ended (code or signal), before onclose. */
  onexit?: (code: number | null, signal: NodeJS.Signals | null) => void;
  /** A stdout line that is not a JSON-RPC message (a banner, a CLI's usage text, a stray log). */
  onnoise?: ((line: string) => void) | undefined;
  /** JSON-RPC messages read from stdout so far. */
  messages = 0;
  /** How the child ended, once it has. */
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  #child: ChildProcess | undefined;
  #exited: Promise<void> | undefined;
  #closing = false;
  #write: (line: string) => boolean = () => false;
  #noiseLogged = 0;

  constructor(private readonly options: ChildSpawnOptions) {}

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  start(): Promise<void> {
    const { command, args, env, cwd, log } = this.options;
    return new Promise((resolve, reject) => {
      const child = spawn(command, [...args], {
        env,
        cwd,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe', ...Array<'pipe'>(this.options.extraStdio ?? 0).fill('pipe')],
        shell: false,
      });
      this.#child = child;
      this.#exited = new Promise(done => child.once('close', () => done()));
      child.once('error', error => {
        // Spawn failures (ENOENT, EACCES) arrive here instead of 'spawn'.
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => {
        if (child.pid !== undefined) childGroupStarted(child.pid);
        this.options.onSpawn?.(child, line => log.write(line));
        resolve();
      });
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        // Descendants left behind by a crash would outlive their server: end the group too.
        if (!this.#closing && child.pid !== undefined) this.#endGroup(child.pid);
        this.onexit?.(code, signal);
      });
      child.once('close', () => {
        if (child.pid !== undefined) childGroupEnded(child.pid);
        log.close();
        this.onclose?.();
      });
      child.stdin?.on('error', error => this.onerror?.(error));
      const reader = new JsonLineReader(
        message => {
          if (message.jsonrpc !== '2.0') return this.#noise(JSON.stringify(message));
          this.messages += 1;
          if (this.intercept?.(message)) return;
          // The SDK runs a notification's handler a microtask later but settles a response at once,
          // dropping the request's progress handler: a child's last progress read in the same chunk
          // as its result was lost. A response right after a progress goes a microtask later (only
          // then: a task's status must still come after the response that names the task).
          if (message.method === undefined && this.#progressJustIn)
            queueMicrotask(() => this.onmessage?.(message as JSONRPCMessage));
          else this.onmessage?.(message as JSONRPCMessage);
          if (message.method === 'notifications/progress' && !this.#progressJustIn) {
            this.#progressJustIn = true;
            queueMicrotask(() => (this.#progressJustIn = false));
          }
        },
        error => this.onerror?.(new Error(`server "${command}" stdout: ${error.message}`)),
        line => {
          if (this.interceptLine?.(line) === true) return true;
          const start = line.trimStart()[0];
          if (start === undefined || start === '{' || start === '[') return false;
          this.#noise(line);
          return true;
        },
      );
      const write = corkedWriter(child.stdin as NonNullable<typeof child.stdin>);
      this.#write = write;
      child.stdout?.on('data', (chunk: Buffer) => reader.push(chunk));
      child.stderr?.on('data', (chunk: Buffer) => log.write(chunk));
    });
  }

  // What a non-MCP program prints goes to its log, so start errors can quote stdout too.
  #noise(line: string): void {
    if (this.#noiseLogged < NOISE_LINES_LOGGED) {
      this.#noiseLogged += 1;
      const text = cut(line, NOISE_LINE_CHARS);
      this.options.log.write(`[stdout] ${text}\n`);
    }
    this.onnoise?.(line);
  }

  #endGroup(pgid: number): void {
    if (!signalGroup(pgid, 'SIGTERM')) return;
    setTimeout(() => signalGroup(pgid, 'SIGKILL'), this.options.graceMs ?? 1500).unref();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.sendRaw(serializeMessage(message));
  }

  /** Writes an already serialized line (the fast lane builds its own). */
  sendRaw(line: string): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || this.#closing || !stdin.writable)
      return Promise.reject(new Error('Not connected: the server process is not running'));
    // Lines written in the same tick (many calls in flight) leave in one writev, not one syscall each.
    if (this.#write(line)) return Promise.resolve();
    return new Promise(resolve => stdin.once('drain', resolve));
  }

  /** End stdin, then SIGTERM the group, then SIGKILL it: nothing of the server survives. */
  async close(): Promise<void> {
    const child = this.#child;
    if (!child || this.#closing) return this.#exited;
    this.#closing = true;
    const grace = this.options.graceMs ?? 1500;
    const exited = this.#exited ?? Promise.resolve();
    const pgid = child.pid;
    try {
      child.stdin?.end();
    } catch {
      // already closed
    }
    const running = () => child.exitCode === null && child.signalCode === null;
    if (running()) await Promise.race([exited, sleep(grace)]);
    if (pgid === undefined) return;
    // The group may hold descendants even when the server itself has exited.
    if (signalGroup(pgid, 'SIGTERM')) {
      const deadline = Date.now() + grace;
      while (Date.now() < deadline && signalGroup(pgid, 0)) await sleep(25);
      signalGroup(pgid, 'SIGKILL');
    }
    await Promise.race([exited, sleep(grace)]);
  }
}
