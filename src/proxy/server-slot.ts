import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { HubError, errorMessage } from '../errors.js';
import type { Logger } from '../logger.js';
import type { CachedTool, ServerWithTools } from '../store/schema.js';
import { CrashHistory, type BackoffPolicy } from './backoff.js';
import type { ChildConnection } from './child-connection.js';
import { CallMetrics } from './metrics.js';
import { logTail } from './server-log.js';
import type { ServerState } from './manager-types.js';

export interface SlotContext {
  readonly hub: Server;
  readonly log: Logger;
  readonly policy: BackoffPolicy;
  readonly startTimeoutMs: number;
  readonly idleStopMs: number;
  readonly graceMs: number | undefined;
  readonly random: () => number;
  logFile(name: string): string;
  /** The child listed these tools (at start or after its list_changed). */
  toolsListed(slot: ServerSlot, tools: CachedTool[]): Promise<void>;
  /** Where this hub publishes a server's state and metrics for other hubs and the CLI. */
  stateDir?(name: string): string;
}

// The SDK Client and the child's transport are loaded when a child first starts, not at hub start.
let childConnectionModule: Promise<typeof import('./child-connection.js')> | undefined;
const loadChildConnection = () => (childConnectionModule ??= import('./child-connection.js'));

const stoppedError = (name: string) =>
  new HubError(
    'CHILD_UNAVAILABLE',
    `Server "${name}" was stopped while it was starting; call the tool again to start it.`,
  );

/**
 * One installed server's lifecycle: stopped → starting → ready → degraded (crashed, restart
 * pending) → failed. Every spawn gets a new generation; events from an older one are ignored.
 */
export class ServerSlot {
  #state: ServerState = 'stopped';
  conn: ChildConnection | undefined;
  readonly metrics = new CallMetrics();

  get state(): ServerState {
    return this.#state;
  }

  // Every state change is published (metrics.ts), so `hub servers` shows what this hub runs.
  set state(next: ServerState) {
    this.#state = next;
    this.metrics.stateChanged(next);
  }
  /** Calls in flight (idle stop waits for zero). */
  active = 0;
  #generation = 0;
  #starting: Promise<ChildConnection> | undefined;
  #wake: (() => void) | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #lastUsed = 0;
  #failure: string | undefined;
  #history: CrashHistory;
  #refreshing: Promise<void> = Promise.resolve();

  constructor(
    public record: ServerWithTools,
    private readonly ctx: SlotContext,
  ) {
    this.#history = new CrashHistory(ctx.policy);
    if (ctx.stateDir) this.metrics.shareTo(ctx.stateDir(record.name));
  }

  get name(): string {
    return this.record.name;
  }

  get generation(): number {
    return this.#generation;
  }

  /** The running child, starting it (once, however many callers wait) when needed. */
  connection(): Promise<ChildConnection> {
    if (this.conn && this.state === 'ready') return Promise.resolve(this.conn);
    if (this.state === 'failed')
      return Promise.reject(new HubError('CHILD_FAILED', this.#failure ?? `Server "${this.name}" failed.`));
    return this.#starting ?? this.#run(0);
  }

  #run(delayMs: number): Promise<ChildConnection> {
    const scheduledIn = this.#generation;
    const attempt = (async () => {
      if (delayMs > 0) await new Promise<void>(resolve => this.#sleep(delayMs, resolve));
      if (scheduledIn !== this.#generation) throw stoppedError(this.name);
      return this.#attempt();
    })();
    this.#starting = attempt;
    attempt.then(
      () => this.#settled(attempt),
      () => this.#settled(attempt),
    );
    return attempt;
  }

  #settled(attempt: Promise<ChildConnection>): void {
    if (this.#starting === attempt) this.#starting = undefined;
  }

  #sleep(ms: number, resolve: () => void): void {
    const timer = setTimeout(() => {
      this.#wake = undefined;
      resolve();
    }, ms);
    this.#wake = () => {
      clearTimeout(timer);
      this.#wake = undefined;
      resolve();
    };
  }

  async #attempt(): Promise<ChildConnection> {
    const generation = ++this.#generation;
    this.state = 'starting';
    const startedAt = Date.now();
    let conn: ChildConnection | undefined;
    let tools: CachedTool[];
    try {
      const { ChildConnection } = await loadChildConnection();
      conn = await ChildConnection.open({
        record: this.record,
        logFile: this.ctx.logFile(this.name),
        hub: this.ctx.hub,
        log: this.ctx.log,
        startTimeoutMs: this.ctx.startTimeoutMs,
        ...(this.ctx.graceMs === undefined ? {} : { graceMs: this.ctx.graceMs }),
        onToolsChanged: () => this.#onToolsChanged(generation),
        onExit: (code, signal) => this.#onExit(generation, code, signal),
      });
      tools = await conn.listTools(this.ctx.startTimeoutMs);
    } catch (error) {
      await conn?.close().catch(() => undefined);
      if (generation !== this.#generation) throw stoppedError(this.name);
      const failure = await this.#describeStartFailure(error);
      this.#unstableExit(startedAt, failure.message);
      throw failure;
    }
    if (generation !== this.#generation) {
      await conn.close().catch(() => undefined);
      throw stoppedError(this.name);
    }
    this.conn = conn;
    this.state = 'ready';
    this.ctx.log.info({ server: this.name, pid: conn.pid, tools: tools.length }, 'child server ready');
    await this.ctx.toolsListed(this, tools);
    this.armIdle();
    return conn;
  }

  async #describeStartFailure(error: unknown): Promise<HubError> {
    const tail = await logTail(this.ctx.logFile(this.name));
    const log = tail
      ? ` Last lines of ${this.ctx.logFile(this.name)}:\n${tail}`
      : ` Its log is ${this.ctx.logFile(this.name)}.`;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return new HubError(
        'CHILD_TIMEOUT',
        `Server "${this.name}" did not complete the MCP handshake within ${this.ctx.startTimeoutMs} ms; check that \`${this.record.command}\` speaks MCP over stdio.${log}`,
      );
    }
    return new HubError(
      'CHILD_FAILED',
      `Server "${this.name}" could not start (${errorMessage(error)}); fix the cause shown in its log and reinstall it.${log}`,
    );
  }

  #onExit(generation: number, code: number | null, signal: NodeJS.Signals | null): void {
    // Stale (an older generation) or intentional (stop bumped the generation): nothing to do.
    if (generation !== this.#generation || this.state !== 'ready' || !this.conn) return;
    const conn = this.conn;
    this.conn = undefined;
    this.#clearIdle();
    const reason = `exited unexpectedly (${signal ?? `code ${code}`})`;
    this.metrics.lastError = `server ${reason}`;
    this.ctx.log.warn({ server: this.name, code, signal }, 'child server exited unexpectedly');
    void conn.close().catch(() => undefined);
    this.#unstableExit(conn.startedAt, reason);
  }

  // A crash or failed start: restart with backoff, or give up after too many in the window.
  #unstableExit(startedAt: number, reason: string): void {
    const verdict = this.#history.onExit(startedAt, Date.now(), this.ctx.random);
    if (verdict.action === 'fail') {
      this.state = 'failed';
      const summary =
        `Server "${this.name}" failed: it stopped ${this.ctx.policy.maxUnstableExits} times within ${this.ctx.policy.windowMs / 1000} s ` +
        `(last: ${reason.split('\n')[0]}). Fix the cause and reinstall it with registry.install, or restart hub.`;
      this.#failure = summary;
      this.metrics.lastError = summary;
      this.ctx.log.error({ server: this.name, reason }, 'child server failed: crash loop');
      // Calls fail fast with the tail of its stderr, which is what a person needs to fix it.
      void logTail(this.ctx.logFile(this.name)).then(tail => {
        if (this.state === 'failed' && this.#failure === summary && tail)
          this.#failure = `${summary} Last lines of ${this.ctx.logFile(this.name)}:\n${tail}`;
      });
      return;
    }
    this.state = 'degraded';
    this.ctx.log.info(
      { server: this.name, delayMs: verdict.delayMs, attempt: verdict.attempt },
      'restarting child server after backoff',
    );
    this.metrics.restarts += 1;
    this.#run(verdict.delayMs).catch(() => undefined);
  }

  #onToolsChanged(generation: number): void {
    this.#refreshing = this.#refreshing.then(async () => {
      if (generation !== this.#generation || !this.conn) return;
      try {
        await this.ctx.toolsListed(this, await this.conn.listTools(this.ctx.startTimeoutMs));
      } catch (error) {
        this.ctx.log.warn(
          { server: this.name, err: errorMessage(error) },
          'could not refresh the tool list after list_changed',
        );
      }
    });
  }

  /** Marks use and makes sure an idle check is pending; one timer, re-armed only when it fires. */
  armIdle(): void {
    this.#lastUsed = Date.now();
    if (this.#idleTimer || this.ctx.idleStopMs <= 0 || this.record.autoStart || this.state !== 'ready') return;
    this.#scheduleIdle(this.ctx.idleStopMs);
  }

  #scheduleIdle(ms: number): void {
    this.#idleTimer = setTimeout(() => {
      this.#idleTimer = undefined;
      if (this.state !== 'ready') return;
      const idleFor = Date.now() - this.#lastUsed;
      if (this.active > 0 || idleFor < this.ctx.idleStopMs)
        return this.#scheduleIdle(this.active > 0 ? this.ctx.idleStopMs : this.ctx.idleStopMs - idleFor);
      this.ctx.log.info({ server: this.name }, 'stopping idle child server');
      void this.stop();
    }, ms);
    this.#idleTimer.unref();
  }

  #clearIdle(): void {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
  }

  /** Stop the child (and any pending start or restart); waits until its process group is gone. */
  async stop(): Promise<void> {
    this.#generation += 1;
    this.#clearIdle();
    this.#wake?.();
    const conn = this.conn;
    this.conn = undefined;
    if (this.state !== 'failed') this.state = 'stopped';
    await Promise.allSettled([conn?.close(), this.#starting]);
  }

  /** A new record (reinstall) or a hub restart clears the crash history and the failed state. */
  reset(): void {
    this.#history.reset();
    this.#failure = undefined;
    if (this.state === 'failed') this.state = 'stopped';
  }
}
