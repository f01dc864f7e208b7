import type { ModernListeners } from '../wire/modern-listen.js';
import type { ClientSide } from './client-side.js';

/**
 * A session's ClientSide with its 2026-07-28 listens added: list changes and resource updates go
 * to the 2025 client (once it initialized, as before) and to every subscriptions/listen stream
 * that asked for them. A session with a listen open counts as one that wants announcements.
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
    // Log messages reach a modern client only in answer to its own requests, never unasked.
    sendLog: params => (base.initialized() ? base.sendLog(params) : Promise.resolve()),
  };
}
