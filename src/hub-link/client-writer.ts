// Everything an entry writes to its client, in order, with the gap after progress kept.
const NEWLINE = 10;
const PROGRESS = Buffer.from('"notifications/progress"');
// As the stdio transport does (wire/stdio-transport.ts PROGRESS_GAP_MS): the SDK client drops a
// progress notification read in the same chunk as the response after it. The hub spaces them, but
// a busy entry may read both from the socket at once, so it keeps the gap on its side too.
const PROGRESS_GAP_MS = 15;

export interface ClientWriter {
  /** Lines of the entry's own (an error, a list_changed), in order with the rest. */
  write(text: Buffer | string): void;
  /** Whole lines from the hub: a progress line among them is followed by the gap. */
  lines(buffer: Buffer): void;
}

/**
 * Everything the entry writes to its client, in order. Only after a progress line does a write
 * wait (for the rest of the gap); otherwise it is one stdout.write per chunk.
 */
export function clientWriter(stdout: NodeJS.WritableStream): ClientWriter {
  let lastProgressAt = 0;
  let queue: Promise<void> | undefined;
  const enqueue = (step: () => Promise<void> | void) => {
    const run = (queue ?? Promise.resolve()).then(step);
    queue = run;
    void run.then(() => {
      if (queue === run) queue = undefined;
    });
  };
  const write = (buffer: Buffer | string) => {
    if (queue === undefined && performance.now() - lastProgressAt >= PROGRESS_GAP_MS) return void stdout.write(buffer);
    enqueue(async () => {
      const left = lastProgressAt + PROGRESS_GAP_MS - performance.now();
      if (left > 0) await new Promise(resolve => setTimeout(resolve, left));
      stdout.write(buffer);
    });
  };
  const lines = (buffer: Buffer) => {
    const at = buffer.lastIndexOf(PROGRESS);
    if (at === -1) return write(buffer);
    const end = buffer.indexOf(NEWLINE, at) + 1;
    write(buffer.subarray(0, end));
    // Stamped when that write is made (at once, or after the writes queued ahead of it).
    const stamp = () => {
      lastProgressAt = performance.now();
    };
    if (queue === undefined) stamp();
    else enqueue(stamp);
    if (end < buffer.length) write(buffer.subarray(end));
  };
  return { write, lines };
}
