// hub's logger: JSON lines to logs/hub.log, one readable line per warning on stderr, never stdout.
import { mkdirSync, writeSync } from 'node:fs';
import pino, { type Logger } from 'pino';
import type { HubConfig } from './config/config.js';

export type { Logger } from 'pino';

// Every line goes to logs/hub.log (JSON lines); warnings and errors also to stderr, except for
// the CLI (stderr: false), which prints one readable line per error itself.
// Never fd 1: stdout belongs to JSON-RPC. sync writes so a crash keeps its last lines.
export function createLogger(config: HubConfig, name = 'hub', options: { stderr?: boolean } = {}): Logger {
  const level = config.logLevel as pino.Level | 'silent';
  const streams: pino.StreamEntry[] = [];
  let fileProblem: string | undefined;
  try {
    mkdirSync(config.paths.logsDir, { recursive: true, mode: 0o700 });
    streams.push({
      level: level === 'silent' ? 'fatal' : level,
      stream: pino.destination({ dest: config.paths.hubLog, sync: true, mode: 0o600 }),
    });
  } catch (error) {
    // A read-only or full HUB_HOME must not stop hub from answering reads: log to stderr only.
    fileProblem = (error as Error).message;
  }
  if (level !== 'silent' && (options.stderr !== false || fileProblem !== undefined))
    streams.push({ level: 'warn', stream: { write: writeStderrLine } });
  const log = pino({ name, level, base: { pid: process.pid } }, pino.multistream(streams));
  if (fileProblem !== undefined)
    log.warn(`cannot write ${config.paths.hubLog} (${fileProblem}); logging to stderr only.`);
  return log;
}

const LEVELS: Record<number, string> = { 40: 'warning', 50: 'error', 60: 'fatal' };

// stderr is what a client shows a person (Claude Desktop's log pane, a terminal): one readable
// line per warning, no JSON and no stack; hub.log keeps the whole record.
function writeStderrLine(json: string): void {
  let line: string;
  try {
    const entry = JSON.parse(json) as { level?: number; msg?: string; err?: { message?: string } };
    const reason = entry.err?.message && !entry.msg?.includes(entry.err.message) ? ` (${entry.err.message})` : '';
    line = `hub: ${LEVELS[entry.level ?? 40] ?? 'warning'}: ${entry.msg ?? ''}${reason}`
      .replace(/\s+/g, ' ')
      .slice(0, 1000);
  } catch {
    line = json.trim().slice(0, 1000);
  }
  try {
    writeSync(2, `${line}\n`);
  } catch {
    // stderr closed: nothing else to tell.
  }
}

export const silentLogger: Logger = pino({ level: 'silent' });
