// list_changed both ways: proxied lists to the client, the client's roots to every child.
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { ClientSide, ListKind } from '../sessions/client-side.js';
import type { Slots } from './slots.js';

// list_changed both ways: the proxied lists changed (to the client), the client's roots changed
// (to every running child).

/** Announces a changed list once the client has initialized; a failed send is only logged. */
export function listChangedAnnouncer(client: ClientSide, log: Logger): (kind: ListKind) => void {
  return kind => {
    if (!client.initialized()) return;
    client
      .sendListChanged(kind)
      .catch(error => log.debug({ err: errorMessage(error) }, `could not send ${kind}/list_changed`));
  };
}

/** The client's roots/list_changed, passed on to every running child. */
export function relayRootsChanged(client: ClientSide, slots: Slots): void {
  client.onRootsListChanged(() => {
    for (const slot of slots.values()) slot.conn?.notifyRootsChanged();
  });
}
