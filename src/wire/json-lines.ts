// JSON-lines framing: a byte stream split and parsed into lines, and lines written coalesced.
const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Splits a byte stream into newline-terminated lines and JSON.parses each (no schema pass). */
export class JsonLineReader {
  #pending: Buffer[] = [];
  #pendingBytes = 0;

  constructor(
    private readonly onMessage: (message: Record<string, unknown>) => void,
    private readonly onError: (error: Error) => void,
    /** Sees each line first; returning true consumes it unparsed (the fast lane's results). */
    private readonly onLine?: (line: string) => boolean,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    let newline = chunk.indexOf(10);
    while (newline !== -1) {
      // Decoded straight from the chunk (no subarray Buffer per line) unless a part is pending.
      let text: string;
      if (this.#pending.length > 0) {
        text = Buffer.concat([...this.#pending, chunk.subarray(start, newline)]).toString('utf8');
        this.#pending = [];
        this.#pendingBytes = 0;
      } else text = chunk.toString('utf8', start, newline);
      this.#parse(text);
      start = newline + 1;
      newline = chunk.indexOf(10, start);
    }
    if (start < chunk.length) {
      this.#pending.push(chunk.subarray(start));
      this.#pendingBytes += chunk.length - start;
      if (this.#pendingBytes > MAX_LINE_BYTES) {
        this.#pending = [];
        this.#pendingBytes = 0;
        this.onError(new Error(`a line longer than ${MAX_LINE_BYTES} bytes was dropped`));
      }
    }
  }

  #parse(text: string): void {
    if (this.onLine?.(text)) return;
    if (text.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.onError(new Error(`a non-JSON line was ignored: ${text.slice(0, 200)}`));
      return;
    }
    if (message !== null && typeof message === 'object' && !Array.isArray(message))
      this.onMessage(message as Record<string, unknown>);
    else this.onError(new Error(`a line that is not a JSON-RPC object was ignored: ${text.slice(0, 200)}`));
  }

  clear(): void {
    this.#pending = [];
    this.#pendingBytes = 0;
  }
}

/** Writes lines to a stream, coalescing the lines of one tick into a single writev. */
export function corkedWriter(
  stream: NodeJS.WritableStream & { cork(): void; uncork(): void },
): (line: string) => boolean {
  let corked = false;
  const uncork = () => {
    corked = false;
    stream.uncork();
  };
  return line => {
    if (!corked) {
      corked = true;
      stream.cork();
      process.nextTick(uncork);
    }
    return stream.write(line);
  };
}
