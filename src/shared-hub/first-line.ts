// The first line on a shared hub's socket read bounded, and a refused peer closed for sure.
import type { Socket } from 'node:net';

export type FirstLine = { line: string; rest: Buffer } | { refused: 'closed' | 'too long' };

/**
 * The first line on socket and the bytes read after it, with the socket paused so nothing else
 * is lost; refused when it closes first or the line passes maxBytes.
 */
export function readFirstLine(socket: Socket, maxBytes: number): Promise<FirstLine> {
  return new Promise(resolve => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (result: FirstLine) => {
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('end', onClose);
      socket.pause();
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      const at = chunk.indexOf(10);
      if (at === -1) {
        chunks.push(chunk);
        size += chunk.length;
        if (size > maxBytes) done({ refused: 'too long' });
        return;
      }
      chunks.push(chunk.subarray(0, at));
      // Checked here too: whether a line passes the limit must not depend on where chunks end.
      if (size + at > maxBytes) return done({ refused: 'too long' });
      done({ line: Buffer.concat(chunks).toString('utf8'), rest: chunk.subarray(at + 1) });
    };
    const onClose = () => done({ refused: 'closed' });
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.once('end', onClose);
  });
}

// A refused peer that never ends its side cannot hold the socket longer than this.
const REFUSE_CLOSE_MS = 5_000;

/**
 * Answers line and closes the socket, whatever the peer does: the hub's sockets are half-open
 * (allowHalfOpen), so end() alone would keep a refused connection until the peer ended it, and
 * the hub would never be idle. What the peer still sends is read and dropped, and the socket is
 * destroyed once the peer ends (or after REFUSE_CLOSE_MS): destroying it with the peer's bytes
 * unread resets the connection on Linux, and the entry could lose the answer before reading it
 * (it then took the hub for dead, failed its calls with "hub restarted", and was refused again).
 */
export function refuse(socket: Socket, line: string): void {
  const timer = setTimeout(() => socket.destroy(), REFUSE_CLOSE_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
  socket.on('data', () => undefined);
  socket.resume();
  socket.end(line);
}
