// A child's log messages as hub's client sees them: named by server, filtered by level.
import type { LoggingLevel, LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';

// LOG_LEVELS: RFC 5424 order, as MCP uses it (wire/era.ts checks a 2026 request's logLevel with it).
import { LOG_LEVELS } from '../../wire/era.js';

type LogParams = LoggingMessageNotification['params'];

/** True when a message at `level` passes a client that set `threshold`. */
export const levelAtLeast = (level: LoggingLevel, threshold: LoggingLevel): boolean =>
  LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);

/**
 * A child's log message as hub's client sees it: `logger` is the server's name (one client sees
 * many servers, and the logger is what tells them apart). The child's own logger is kept as a
 * prefix of text data ("db: connected"), which is what clients show, or beside structured data
 * ({ logger, data }), so nothing the child said is lost.
 */
export function childLogMessage(server: string, params: LogParams): LogParams {
  const { logger, data, ...rest } = params;
  if (logger === undefined || logger === '' || logger === server) return { ...rest, logger: server, data };
  return { ...rest, logger: server, data: typeof data === 'string' ? `${logger}: ${data}` : { logger, data } };
}

/** The most verbose of the levels set (what a child shared by several clients must send), if any. */
export function mostVerbose(levels: Iterable<LoggingLevel | undefined>): LoggingLevel | undefined {
  let found: LoggingLevel | undefined;
  for (const level of levels)
    if (level !== undefined && (found === undefined || LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(found)))
      found = level;
  return found;
}
