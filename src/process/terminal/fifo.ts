// Input written through the stdin FIFO the keeper holds, with flow control and a deadline.
import { constants, openSync } from 'node:fs';
import { Socket } from 'node:net';
import { HubError } from '../../core/errors.js';
import type { ProcessRecord } from '../../store/schema.js';
import { descendantsOf, openFilesOf } from '../keeper/process-tree.js';

// Input goes through the FIFO the keeper holds open as the command's stdin (keeper.ts). Opened
// non-blocking and written through a net.Socket, so a process that does not read its input
// fills the pipe and hub waits (flow control) without blocking a thread, up to a deadline.
const FD_SCAN_LIMIT = 256;

/** Some process under the keeper reads the FIFO: the command's stdin is still open. */
export function stdinOpen(record: ProcessRecord, fifo: string): boolean {
  // The keeper's descendants, not its whole group: a walk down from one pid instead of a pass
  // over every process (send_input's round trip).
  return openFilesOf(descendantsOf(record.pid), FD_SCAN_LIMIT).some(file => file.target === fifo);
}

/** Writes all of data, or throws after timeoutMs naming how much the process took. */
export async function writeInput(fifo: string, data: Buffer, timeoutMs: number): Promise<void> {
  let fd: number;
  try {
    fd = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    throw new HubError(
      'PROCESS_ENDED',
      `The process's input channel is gone (${(error as NodeJS.ErrnoException).code ?? 'error'}): it has ended or is between restarts.`,
      { cause: error },
    );
  }
  const socket = new Socket({ fd, readable: false, writable: true });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          new HubError(
            'INPUT_TIMEOUT',
            `The process read only part of the input within ${timeoutMs} ms (${data.length - socket.writableLength} of ${data.length} bytes taken); the rest was dropped. It is busy or not reading stdin.`,
          ),
        );
      }, timeoutMs);
      socket.once('error', error => {
        clearTimeout(timer);
        reject(new HubError('PROCESS_ENDED', `Writing input failed: ${error.message}.`, { cause: error }));
      });
      socket.write(data, error => {
        clearTimeout(timer);
        if (error) reject(new HubError('PROCESS_ENDED', `Writing input failed: ${error.message}.`, { cause: error }));
        else resolve();
      });
    });
  } finally {
    socket.destroy();
  }
}
