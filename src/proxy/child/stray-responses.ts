// Responses a child sends to requests hub never made: warned about once, then logged at debug.
import type { Logger } from '../../core/logger.js';
import type { StrayResponse } from '../../wire/fast-calls.js';

// A child that writes responses to requests hub never sent (or in no valid shape) is broken or
// trying to pass answers off as another request's. Said once per connection as a warning (a
// flood must not flood hub.log), then at debug level; a malformed answer to a pending request
// also fails that request (fast-calls.ts) rather than leaving it to wait for its timeout.
export function strayResponses(log: Logger, server: string) {
  let seen = 0;
  const say = (fields: Record<string, unknown>, text: string): void => {
    seen += 1;
    if (seen === 1)
      log.warn(
        { server, ...fields },
        `${text} (the server is broken or spoofing; later ones are logged at debug level)`,
      );
    else log.debug({ server, seen, ...fields }, text);
  };
  return {
    /** From the fast lane (fast-calls.ts). */
    response: (stray: StrayResponse): void =>
      say(
        { id: stray.id },
        stray.why === 'never sent'
          ? 'dropped a response from the server to a request hub never sent'
          : 'the server answered a request with a malformed response; the request fails',
      ),
    /** From the SDK Client's onerror: true when the error was a stray response. */
    protocolError(error: Error): boolean {
      if (error.message.startsWith('Received a response for an unknown message ID')) {
        say({}, 'dropped a response from the server to a request hub never sent (or one already answered)');
        return true;
      }
      if (error.message.startsWith('Unknown message type')) {
        say({}, 'dropped a message from the server that is neither a request, a response nor a notification');
        return true;
      }
      return false;
    },
  };
}
