// The audit log of one HUB_HOME: records queued, redacted and appended off the call path.
import { closeSync, fchmodSync, fstatSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import type { AuditSettings, HubConfig } from '../../core/config/config.js';
import type { Logger } from '../../core/logger.js';
import { silentLogger } from '../../core/logger.js';
import type { HubPaths } from '../../core/paths.js';
import { auditLine, type AuditRecord } from './line.js';
import { AUDIT_FILE, rotateIfDue, sweepOld } from './rotate.js';
import { secretValues } from '../secret-values.js';
import type { Store } from '../store.js';

export { labelSession, type AuditRecord } from './line.js';

// Busy hubs flush in batches; a quiet one within this long. The tools/call path never waits on it.
const FLUSH_MS = 100;
const FLUSH_AT = 256;
// Bounded while the disk refuses: older lines are counted as lost rather than held without end.
const MAX_PENDING = 20_000;
// One write() per chunk of whole lines (see appendLines).
const CHUNK_BYTES = 64 * 1024;
const SECRETS_TTL_MS = 2_000;

const defaults: AuditSettings = {
  enabled: true,
  maxBytes: 20 * 1024 * 1024,
  maxAgeHours: 24,
  keepDays: 30,
  inputText: false,
};

/**
 * The audit log of one HUB_HOME (docs/audit.md): JSON lines appended to HUB_HOME/audit/audit.jsonl
 * by every hub process that uses it (the shared hub, in-process hubs, `hub <command>`). record()
 * only queues the record; a timer turns the queue into lines (redaction and sizes are worked out
 * there, off the caller's path) and appends them; the process's exit flushes what is left.
 *
 * Many writers, no lock: the file is opened O_APPEND and each chunk of whole lines goes out in one
 * write(). On a local file system the kernel moves to the end and copies the whole buffer under the
 * file's lock, so writes of several processes never interleave inside one another (the PIPE_BUF
 * limit is for pipes, not regular files). A lock would make every hub wait on every other for each
 * flush. Lines are at most AUDIT_LINE_MAX bytes, so a reader never takes a huge line.
 */
export class AuditLog {
  #queue: AuditRecord[] = [];
  #timer: NodeJS.Timeout | undefined;
  #fd: number | undefined;
  #ino = 0;
  #opened = 0;
  #lost = 0;
  #said = false;
  #secrets: readonly string[] = [];
  #secretsAt = 0;
  settings: () => AuditSettings = () => defaults;
  log: Logger = silentLogger;
  store: Store | undefined;

  constructor(readonly dir: string) {}

  readonly #listeners: ((entry: AuditRecord) => void)[] = [];

  /**
   * Also hands every record to `listener` as it happens, enabled or not (metrics and traces can
   * take calls, process actions and installs from here): synchronous, on the call path, so cheap.
   */
  onRecord(listener: (entry: AuditRecord) => void): () => void {
    this.#listeners.push(listener);
    return () => void this.#listeners.splice(this.#listeners.indexOf(listener) >>> 0, 1);
  }

  /** Queues one record; the caller never waits on disk. */
  record(entry: AuditRecord): void {
    for (const listener of this.#listeners)
      try {
        listener(entry);
      } catch {
        // A listener's fault never reaches the call that was recorded.
      }
    if (!this.settings().enabled) return;
    if (this.#queue.length >= MAX_PENDING) {
      this.#queue.shift();
      this.#lost += 1;
    }
    this.#queue.push(entry);
    if (this.#queue.length >= FLUSH_AT) {
      if (this.#timer) clearTimeout(this.#timer);
      this.#timer = setTimeout(() => this.flush(), 0);
      this.#timer.unref();
    } else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.flush(), FLUSH_MS);
      this.#timer.unref();
    }
  }

  /** Writes every queued record now (a timer, the process's exit, a test). */
  flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#queue.length === 0) return;
    const queue = this.#queue;
    this.#queue = [];
    const secrets = this.#currentSecrets();
    const inputText = this.settings().inputText;
    const lines = queue.map(entry => auditLine(entry, secrets, inputText));
    try {
      this.#append(lines);
    } catch (error) {
      this.#lost += lines.length;
      this.#sayOnce(error);
    }
  }

  /** Lines that could not be written (a full disk, a read-only HUB_HOME) since this process started. */
  get lost(): number {
    return this.#lost;
  }

  #currentSecrets(): readonly string[] {
    const now = Date.now();
    if (this.store && now - this.#secretsAt > SECRETS_TTL_MS) {
      const data = this.store.readNow();
      if (data) this.#secrets = secretValues(data);
      this.#secretsAt = now;
    }
    return this.#secrets;
  }

  #append(lines: readonly string[]): void {
    const fd = this.#open();
    let chunk = '';
    const out = (text: string) => {
      const bytes = Buffer.from(text);
      let done = 0;
      // A short write happens only when the disk fills: the rest follows at once.
      while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
    };
    for (const line of lines) {
      if (chunk.length > 0 && chunk.length + line.length > CHUNK_BYTES) {
        out(chunk);
        chunk = '';
      }
      chunk += line;
    }
    if (chunk.length > 0) out(chunk);
  }

  // The current file: reopened when another hub rotated it, rotated here when due.
  #open(): number {
    const file = `${this.dir}/${AUDIT_FILE}`;
    if (this.#fd !== undefined) {
      let current = -1;
      try {
        current = statSync(file).ino;
      } catch {
        // Rotated away and not yet made again: opened below.
      }
      if (current === this.#ino) {
        const rotated = rotateIfDue(this.dir, this.#fd, this.#opened, this.settings());
        if (!rotated) return this.#fd;
        sweepOld(this.dir, this.settings().keepDays);
      }
      closeSync(this.#fd);
      this.#fd = undefined;
    }
    // Not recursive: a HUB_HOME removed under a running hub (a test's, a person's) is not made again.
    try {
      mkdirSync(this.dir, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const fd = openSync(file, 'a', 0o600);
    // A file made by an older hub, or with another umask: the log is the person's alone.
    fchmodSync(fd, 0o600);
    const stat = fstatSync(fd);
    this.#fd = fd;
    this.#ino = stat.ino;
    this.#opened = stat.size === 0 ? Date.now() : Math.min(stat.birthtimeMs || stat.mtimeMs, Date.now());
    return fd;
  }

  #sayOnce(error: unknown): void {
    if (this.#said) return;
    this.#said = true;
    this.log.warn(
      { err: error, dir: this.dir },
      'the audit log could not be written (full disk, or HUB_HOME not writable); calls go on, and the lines are counted as lost',
    );
  }

  close(): void {
    this.flush();
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }
}

const logs = new Map<string, AuditLog>();
let exitHooked = false;

/** The audit log of this HUB_HOME, one per process; flushed when the process exits. */
export function auditLog(paths: Pick<HubPaths, 'auditDir'>): AuditLog {
  let log = logs.get(paths.auditDir);
  if (log === undefined) {
    log = new AuditLog(paths.auditDir);
    logs.set(paths.auditDir, log);
  }
  if (!exitHooked) {
    exitHooked = true;
    process.on('exit', () => {
      for (const each of logs.values()) each.close();
    });
  }
  return log;
}

/** Gives this HUB_HOME's audit log its settings, logger and the store whose secrets it masks (openContext, createHubCore). */
export function openAudit(config: HubConfig, log: Logger, store: Store): AuditLog {
  const audit = auditLog(config.paths);
  audit.settings = () => config.audit;
  audit.log = log;
  audit.store = store;
  return audit;
}
