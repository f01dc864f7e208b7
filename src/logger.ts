import { mkdirSync } from 'node:fs';
import pino, { type Logger } from 'pino';
import type { HubConfig } from './config.js';

export type { Logger } from 'pino';

// Every line goes to logs/hub.log (JSON lines); warnings and errors also to stderr, except for
// the CLI (stderr: false), which prints one readable line per error itself.
// Never fd 1: stdout belongs to JSON-RPC. sync writes so a crash keeps its last lines.
export function createLogger(config: HubConfig, name = 'hub', options: { stderr?: boolean } = {}): Logger {
  mkdirSync(config.paths.logsDir, { recursive: true, mode: 0o700 });
  const level = config.logLevel as pino.Level | 'silent';
  const file = pino.destination({ dest: config.paths.hubLog, sync: true, mode: 0o600 });
  const streams: pino.StreamEntry[] = [{ level: level === 'silent' ? 'fatal' : level, stream: file }];
  if (level !== 'silent' && options.stderr !== false) streams.push({ level: 'warn', stream: pino.destination({ dest: 2, sync: true }) });
  return pino({ name, level, base: { pid: process.pid } }, pino.multistream(streams));
}

export const silentLogger: Logger = pino({ level: 'silent' });
