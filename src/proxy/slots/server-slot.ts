// One installed server's lifecycle: stopped, starting, ready, degraded, failed.
import { HubError, errorMessage } from '../../core/errors.js';
import type { CachedTool, ServerWithTools } from '../../store/schema.js';
import type { RelaySource } from '../sessions/client-side.js';
import { needKnown, type ToolNeed } from '../listing/tool-needs.js';
import { CallsInFlight } from './in-flight.js';
import { CrashHistory, wakeableDelay } from './backoff.js';
import type { ChildConnection } from '../child/connection.js';
import { IdleStop } from './idle-stop.js';
import { SignInRequired } from '../oauth/required.js';
import { disabledMessage, isDisabled } from '../listing/tool-filter.js';
import { CallMetrics } from './metrics.js';
import { whileRunning } from './records.js';
import { capInstructions } from '../listing/instructions-section.js';
import {
  crashLoopSummary,
  describeStartFailure,
  exitedBeforeListing,
  logExplanation,
  stoppedError,
} from './start-failure.js';
import type { SlotContextOf } from './slot-context.js';
import type { ServerState } from './state.js';

/** What a slot is given by the manager (slot-context.ts), about this slot class. */
export type SlotContext = SlotContextOf<ServerSlot>;

// The SDK Client and the child's transport are loaded when a child first starts, not at hub start.
let childConnectionModule: Promise<typeof import('../child/connection.js')> | undefined;
const loadChildConnection = () => (childConnectionModule ??= import('../child/connection.js'));

/**
 * One installed server's lifecycle: stopped → starting → ready → degraded (crashed, restart
 * pending) → failed. Every spawn gets a new generation; events from an older one are ignored.
 * Its state changes only through its own methods.
 */
export class ServerSlot {
  #state: ServerState = 'stopped';
  #conn: ChildConnection | undefined;
  #record: ServerWithTools;
  readonly metrics = new CallMetrics();
  readonly #inFlight = new CallsInFlight();
  #generation = 0;
  #starting: Promise<ChildConnection> | undefined;
  /** The start deadline of the next start only (an install's first start); then ctx.startTimeoutMs. */
  nextStartMs: number | undefined;
  #wake: (() => void) | undefined;
  #idle: IdleStop;
  #failure: string | undefined;
  #history: CrashHistory;
  #refreshing: Promise<void> = Promise.resolve();
  /** What a relayed request of this child names (client-sessions.ts routes by it). */
  readonly relaySource: RelaySource;

  constructor(
    record: ServerWithTools,
    private readonly ctx: SlotContext,
  ) {
    this.#record = record;
    this.#history = new CrashHistory(ctx.policy);
    this.#idle = new IdleStop(ctx.idleStopMs, this);
    if (ctx.stateDir) this.metrics.shareTo(ctx.stateDir(record.name));
    this.metrics.audit = ctx.audit;
    this.relaySource = this.#inFlight.relaySource(() => this.name);
  }

  get state(): ServerState {
    return this.#state;
  }

  // Every state change is published (metrics.ts), so `hub servers` shows what this hub runs.
  #setState(next: ServerState): void {
    this.#state = next;
    this.metrics.stateChanged(next);
  }

  /** The running child, when there is one. */
  get conn(): ChildConnection | undefined {
    return this.#conn;
  }

  /** The store record, with the tools this slot lists. */
  get record(): ServerWithTools {
    return this.#record;
  }

  get name(): string {
    return this.#record.name;
  }

  get active(): number {
    return this.#inFlight.count;
  }

  /** A call is forwarded to this server now (of `tool`, when it is a tools/call). */
  callStarted(session?: object, tool?: string): void {
    this.#inFlight.started(session, tool, this.#conn !== undefined);
  }

  /** A forwarded call ended: with none left, the idle check is armed. */
  callEnded(session?: object, tool?: string): void {
    if (this.#inFlight.ended(session, tool)) this.#idle.used();
  }

  // Only when one tool is in flight is it known whose request this is; one already known is kept.
  #asked(need: ToolNeed): void {
    const tool = this.#inFlight.tools.only();
    if (tool !== undefined && !needKnown(this.#record.toolNeeds, tool, need)) this.ctx.needSeen?.(this, tool, need);
  }

  /** The store record changed but not how the child is launched: a running child's lists stay. */
  update(record: ServerWithTools): void {
    this.#record = this.#conn ? whileRunning(this.#record, record) : record;
  }

  /** Reinstalled: the old child is stale and its crash history no longer applies. */
  async replace(record: ServerWithTools): Promise<void> {
    const stopped = this.stop();
    this.#record = record;
    await stopped;
    this.reset();
  }

  /** What the child told about itself (tools under their cache stamp, instructions, prompts and resources), as the store keeps it. */
  keep(change: (record: ServerWithTools) => ServerWithTools): void {
    this.#record = change(this.#record);
  }

  /** The running child, starting it (once, however many callers wait) when needed. */
  connection(): Promise<ChildConnection> {
    // Every start comes here (a call, registry.call, autoStart, registry.list, a prompt): none for a disabled server.
    if (isDisabled(this.#record)) return Promise.reject(new HubError('SERVER_DISABLED', disabledMessage(this.name)));
    if (this.conn && this.state === 'ready') return Promise.resolve(this.conn);
    if (this.state === 'failed')
      return Promise.reject(new HubError('CHILD_FAILED', this.#failure ?? `Server "${this.name}" failed.`));
    return this.#starting ?? this.#run(0);
  }

  #run(delayMs: number): Promise<ChildConnection> {
    const scheduledIn = this.#generation;
    const attempt = (async () => {
      // stop() wakes it at once (a stale wake of an ended delay does nothing).
      if (delayMs > 0) await wakeableDelay(delayMs, wake => (this.#wake = wake));
      if (scheduledIn !== this.#generation) throw stoppedError(this.name);
      return this.#attempt();
    })();
    this.#starting = attempt;
    const settled = () => this.#starting === attempt && (this.#starting = undefined);
    attempt.then(settled, settled);
    return attempt;
  }

  async #attempt(): Promise<ChildConnection> {
    const generation = ++this.#generation;
    const startTimeoutMs = this.nextStartMs ?? this.ctx.startTimeoutMs;
    this.nextStartMs = undefined;
    this.#setState('starting');
    const startedAt = Date.now();
    let conn: ChildConnection | undefined;
    let tools: CachedTool[];
    try {
      const { ChildConnection } = await loadChildConnection();
      conn = await ChildConnection.open({
        ...this.ctx.child,
        record: this.record,
        logFile: this.ctx.logFile(this.name),
        log: this.ctx.log,
        startTimeoutMs: startTimeoutMs,
        from: this.relaySource,
        onAsks: need => this.#asked(need),
        onToolsChanged: () => this.#onToolsChanged(generation),
        onSurfaceChanged: () => this.#afterChange(generation, conn => this.ctx.surfaceSeen?.(this, conn, 'changed')),
        onExit: (code, signal) => this.#onExit(generation, code, signal),
        onLost: reason => this.#onExit(generation, null, null, reason),
      });
      // One deadline for the whole start: no state stays "starting" past the start timeout.
      const left = Math.max(1, startedAt + startTimeoutMs - Date.now());
      tools = await conn.listTools(left);
    } catch (thrown) {
      // Read before close(), which ends the process itself: a child that died after the handshake.
      const exit = conn?.exit;
      const error = exit ? exitedBeforeListing(exit, thrown) : thrown;
      await conn?.close().catch(() => undefined);
      if (generation !== this.#generation) throw stoppedError(this.name);
      if (thrown instanceof SignInRequired) this.#awaitSignIn(thrown);
      const failure = await describeStartFailure(this.record, this.ctx.logFile(this.name), error, startTimeoutMs);
      this.metrics.lastError = failure.message;
      this.#unstableExit(startedAt, `could not start (${errorMessage(error)})`);
      throw failure;
    }
    if (generation !== this.#generation) {
      await conn.close().catch(() => undefined);
      throw stoppedError(this.name);
    }
    this.#conn = conn;
    this.#setState('ready');
    this.ctx.log.info({ server: this.name, pid: conn.pid, tools: tools.length }, 'child server ready');
    // Instructions before tools: at install, both are approved as first seen (tools take the baseline fingerprints).
    const instructions = capInstructions(conn.instructions);
    if (instructions !== this.record.instructions) await this.ctx.instructionsSeen(this, instructions);
    await this.ctx.toolsListed(this, tools);
    await this.ctx.surfaceSeen?.(this, conn, 'start');
    this.#idle.used();
    return conn;
  }

  // Not a crash: stopped until the person signs in, then started (its tools come with list_changed).
  // Its link leaves the status once the sign-in ends either way: a spent link is never handed out.
  #awaitSignIn(error: SignInRequired): never {
    this.#setState('stopped');
    this.metrics.lastError = error.message;
    const generation = this.#generation;
    const start = () =>
      void (generation === this.#generation && this.state === 'stopped' && this.#run(0).catch(() => 0));
    const spent = () => void (this.metrics.lastError === error.message && (this.metrics.lastError = undefined));
    error.signedIn.then(() => (spent(), start()), spent);
    throw error;
  }

  #onExit(generation: number, code: number | null, signal: NodeJS.Signals | null, lost?: string): void {
    // Stale (an older generation) or intentional (stop bumped the generation): nothing to do.
    if (generation !== this.#generation || this.state !== 'ready' || !this.conn) return;
    const conn = this.conn;
    this.#conn = undefined;
    this.#idle.clear();
    const reason = lost ?? `exited unexpectedly (${signal ?? `code ${code}`})`;
    this.metrics.lastError = `server ${reason}`;
    this.ctx.log.warn({ server: this.name, code, signal }, 'child server exited unexpectedly');
    void conn.close().catch(() => undefined);
    this.#unstableExit(conn.startedAt, reason);
  }

  // A crash or failed start: restart with backoff, or give up after too many unstable runs in a row.
  #unstableExit(startedAt: number, reason: string): void {
    const verdict = this.#history.onExit(startedAt, Date.now(), this.ctx.random);
    if (verdict.action === 'fail') {
      this.#setState('failed');
      const summary = crashLoopSummary(this.record, this.ctx.policy, reason);
      this.#failure = summary;
      this.metrics.lastError = summary;
      this.ctx.log.error({ server: this.name, reason }, 'child server failed: crash loop');
      // Calls fail fast with the log lines that explain it, which is what a person needs to fix it.
      void logExplanation(this.ctx.logFile(this.name)).then(log => {
        if (this.state !== 'failed' || this.#failure !== summary) return;
        this.#failure = `${summary}${log}`;
        this.metrics.lastError = this.#failure;
      });
      return;
    }
    this.#setState('degraded');
    this.ctx.log.info(
      { server: this.name, delayMs: verdict.delayMs, attempt: verdict.attempt },
      'restarting child server after backoff',
    );
    this.metrics.restarts += 1;
    this.#run(verdict.delayMs).catch(() => undefined);
  }

  #onToolsChanged(generation: number): void {
    this.#afterChange(generation, conn =>
      conn
        .listTools(this.ctx.startTimeoutMs)
        .then(tools => this.ctx.toolsListed(this, tools))
        .catch((error: unknown) => {
          this.ctx.log.warn({ server: this.name, err: errorMessage(error) }, 'could not refresh the tools');
        }),
    );
  }

  // One refresh at a time, in the order the child announced them, and only for the current child.
  #afterChange(generation: number, refresh: (conn: ChildConnection) => Promise<void> | undefined): void {
    this.#refreshing = this.#refreshing.then(async () => {
      if (generation === this.#generation && this.conn) await refresh(this.conn);
    });
  }

  /** No call used the child for idleStopMs. */
  stopIdle(): void {
    this.ctx.log.info({ server: this.name }, 'stopping idle child server');
    void this.stop();
  }

  /** Stop the child (and any pending start or restart); waits until its process group is gone. */
  async stop(): Promise<void> {
    this.#generation += 1;
    this.#idle.clear();
    this.#wake?.();
    const conn = this.conn;
    this.#conn = undefined;
    if (this.state !== 'failed') this.#setState('stopped');
    await Promise.allSettled([conn?.close(), this.#starting]);
  }

  /** A new record (reinstall) or a hub restart clears the crash history and the failed state. */
  reset(): void {
    this.#history.reset();
    this.#failure = undefined;
    if (this.state === 'failed') this.#setState('stopped');
  }
}
