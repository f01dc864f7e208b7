import { withTasksExtension } from '../../wire/tasks-extension.js';

type Json = Record<string, unknown>;

/**
 * hub's capabilities as `server/discover` tells a 2026-07-28 client: the Tasks extension in place
 * of the 2025-11-25 `tasks` capability, which the extension replaces (a server must not declare
 * both under a revision that has the extension). initialize still declares `tasks`.
 */
export function modernCapabilities<T extends Json>(capabilities: T): Json {
  const { tasks: _legacy, ...rest } = capabilities;
  return withTasksExtension(rest);
}
