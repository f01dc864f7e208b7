import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { ModernListeners } from '../wire/modern-listen.js';
import type { ClientSide } from './client-side.js';
import { levelAtLeast } from './log-relay.js';

/**
 * A session's ClientSide with its 2026-07-28 listens added: list changes and resource updates go
 * to the 2025 client (once it initialized, as before) and to every subscriptions/listen stream
 * that asked for them; log messages to the requests in flight that asked for them (logLevel). A session with a listen open counts as one that wants announcements.
 */
export function withModernListeners(base: ClientSide, listeners: ModernListeners): ClientSide {
  return {
    ...base,
    initialized: () => base.initialized() || listeners.active,
    async sendListChanged(kind) {
      listeners.listChanged(kind);
      if (base.initialized()) await base.sendListChanged(kind);
    },
    async sendResourceUpdated(uri) {
      listeners.resourceUpdated(uri);
      if (base.initialized()) await base.sendResourceUpdated(uri);
    },
    // A modern client has no logging/setLevel: a message reaches it only while one of its requests
    // that named a logLevel (at or below the message's) is in flight, never unasked.
    async sendLog(params) {
      if (base.initialized()) return base.sendLog(params);
      for (const level of listeners.logLevels)
        if (levelAtLeast(params.level, level as LoggingLevel)) return listeners.log(params);
    },
  };
}
