// Every request refused with one clear error when hub's own settings are wrong (zero-dependency).
import { JsonLineReader } from '../wire/json-lines.js';
import type { HandOff } from './bootstrap.js';

// hub's own settings are wrong (HUB_EXPOSURE=everything). Exiting would show the client only
// "Connection closed", and a fallback to the default would silently list other tools than the
// person chose. So hub stays and answers every request, initialize first, with one error that
// names the variable and its valid values: a client shows it where it shows a server that failed.
// Zero-dependency (the cold-start lane's rules): JSON lines in, JSON lines out, until stdin ends.
const SETTINGS_ERROR = -32603;

export function refuseEveryRequest(
  message: string,
  handOff: HandOff | undefined,
  stdin: NodeJS.ReadableStream,
  write: (line: string) => void,
): Promise<void> {
  const answered = new Set(handOff?.answered);
  const reader = new JsonLineReader(
    request => {
      const { id, method } = request;
      // Notifications and responses need no answer.
      if (typeof method !== 'string' || (typeof id !== 'string' && typeof id !== 'number')) return;
      if (answered.has(id)) return;
      write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code: SETTINGS_ERROR, message } })}\n`);
    },
    () => undefined,
  );
  if (handOff && handOff.replay.length > 0) reader.push(handOff.replay);
  return new Promise(resolve => {
    if (handOff?.ended) return resolve();
    stdin.on('data', (chunk: Buffer) => reader.push(chunk));
    stdin.once('end', () => resolve());
    stdin.once('close', () => resolve());
    stdin.resume();
  });
}
