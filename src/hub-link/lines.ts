// Whole lines between a client and the shared hub (entry.ts): the entry splits on newlines and
// needs only a response's id from each hub line.

export type Id = string | number;

export const NEWLINE = 10;

// A response's id: hub's own lines put it first or last; anything else is parsed.
const ID_FIRST = /^\{"jsonrpc":"2\.0","id":("(?:[^"\\]|\\.)*"|-?\d+),"(?:result|error)"/;
const ID_LAST = /"id":("(?:[^"\\]|\\.)*"|-?\d+)\}\s*$/;

export function responseId(line: string): Id | undefined {
  const first = ID_FIRST.exec(line);
  if (first) return JSON.parse(first[1]!) as Id;
  if (line.startsWith('{"method"')) return undefined; // a notification or a request to the client
  if ((line.startsWith('{"result"') || line.startsWith('{"error"')) && ID_LAST.test(line))
    return JSON.parse(ID_LAST.exec(line)![1]!) as Id;
  try {
    const message = JSON.parse(line) as { id?: Id; method?: unknown };
    return message.method === undefined ? message.id : undefined;
  } catch {
    return undefined;
  }
}

/** Whole lines of chunk after tail, and the new tail. */
export function splitLines(tail: Buffer, chunk: Buffer): { whole: Buffer | undefined; tail: Buffer } {
  const last = chunk.lastIndexOf(NEWLINE);
  if (last === -1) return { whole: undefined, tail: tail.length ? Buffer.concat([tail, chunk]) : chunk };
  const head = chunk.subarray(0, last + 1);
  return { whole: tail.length ? Buffer.concat([tail, head]) : head, tail: chunk.subarray(last + 1) };
}

export function* linesOf(buffer: Buffer): Generator<string> {
  let start = 0;
  for (let at = buffer.indexOf(NEWLINE); at !== -1; at = buffer.indexOf(NEWLINE, start)) {
    if (at > start) yield buffer.toString('utf8', start, at);
    start = at + 1;
  }
}
