// Whole lines between a client and the shared hub (entry.ts): the entry splits on newlines and
// needs only a response's id from each hub line, the hub's answer to its hello, and which client
// lines are start_process calls.

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

// start_process in flight when the hub dies may have started its process already: "call again"
// would start a second copy. Its line goes to the next hub as it was (same JSON-RPC id), which
// knows the call by this entry and that id and returns the process it started (process/manager.ts).
export const isStartProcess = (message: { method?: unknown; params?: unknown }): boolean =>
  message.method === 'tools/call' && (message.params as { name?: unknown } | null)?.name === 'start_process';

/** The hub's message when its first line refuses the hello instead of welcoming this entry. */
export function refusalIn(line: string): string | undefined {
  try {
    const first = JSON.parse(line) as { hub?: unknown; message?: unknown };
    if (first.hub === 'welcome') return undefined;
    return typeof first.message === 'string' ? first.message.slice(0, 300) : 'no welcome';
  } catch {
    return 'no welcome';
  }
}
