// Telling a stdio child that is not an MCP server: it exited early, or printed no JSON-RPC.
import { HubError } from '../../core/errors.js';
import type { ChildProcessTransport } from './transport.js';

// What a stdio child that is not (yet) an MCP server looks like: it exited before the handshake,
// or it printed lines that are not JSON-RPC and then nothing that is.

export const exitedEarly = (exit: { code: number | null; signal: NodeJS.Signals | null }) =>
  new HubError(
    'CHILD_FAILED',
    `the process exited (${exit.signal ?? `code ${exit.code}`}) before completing the MCP handshake`,
  );

// Rejects when the child printed lines that are not JSON-RPC and then nothing that is, for graceMs.
export function watchForNotMcp(
  transport: ChildProcessTransport,
  graceMs: number,
): { verdict: Promise<never>; stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  let noise = 0;
  const verdict = new Promise<never>((_resolve, reject) => {
    transport.onnoise = () => {
      noise += 1;
      if (timer || transport.messages > 0) return;
      timer = setTimeout(() => {
        if (transport.messages > 0) return;
        reject(
          new HubError(
            'CHILD_FAILED',
            `it printed ${noise} line(s) on stdout that are not JSON-RPC and answered nothing within ${graceMs} ms: it does not look like an MCP server that speaks over stdio`,
          ),
        );
      }, graceMs);
    };
  });
  verdict.catch(() => undefined);
  return {
    verdict,
    stop() {
      clearTimeout(timer);
      transport.onnoise = undefined;
    },
  };
}
