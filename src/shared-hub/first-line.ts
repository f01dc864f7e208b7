import type { Socket } from 'node:net';

/**
 * The first line on socket and the bytes read after it, with the socket paused so nothing else
 * is lost; undefined when it closes first or the line passes maxBytes.
 */
export function readFirstLine(socket: Socket, maxBytes: number): Promise<{ line: string; rest: Buffer } | undefined> {
  return new Promise(resolve => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (result: { line: string; rest: Buffer } | undefined) => {
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
        if (size > maxBytes) done(undefined);
        return;
      }
      chunks.push(chunk.subarray(0, at));
      done({ line: Buffer.concat(chunks).toString('utf8'), rest: chunk.subarray(at + 1) });
    };
    const onClose = () => done(undefined);
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.once('end', onClose);
  });
}
