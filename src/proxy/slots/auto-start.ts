// autoStart servers started once the client has initialized.
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { ClientSide } from '../sessions/client-side.js';
import type { Slots } from './slots.js';
import { isDisabled } from '../listing/tool-filter.js';

/**
 * autoStart servers start once the client has initialized: children can only be offered what
 * the client declared, known then. With no client (the CLI) they are not started.
 */
export function autoStartOnInitialize(client: ClientSide, slots: Slots, log: Logger): void {
  client.whenInitialized(() => {
    if (slots.closed) return;
    for (const slot of slots.values()) {
      if (slot.record.autoStart && slot.state === 'stopped' && !isDisabled(slot.record)) {
        slot
          .connection()
          .catch(error => log.warn({ server: slot.name, err: errorMessage(error) }, 'autoStart server did not start'));
      }
    }
  });
}
