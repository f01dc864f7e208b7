/**
 * A child's tools/call result kept as the bytes it wrote: the fast lane finds our `hub-N` id
 * without JSON.parse and splices the caller's id in its place, so `result` is never parsed or
 * re-serialized. Only two common key orders qualify (anything else is JSON.parse'd as before):
 *   `{"result":{…},"jsonrpc":"2.0","id":"hub-N"}`   (the TypeScript SDK)
 *   `{"jsonrpc":"2.0","id":"hub-N","result":{…}}`   (Python, Go and most others)
 * The `result` object is walked (strings and nesting, no parse) so that it must end exactly where
 * our id's frame begins or ends: a line with any other top-level member (a second `"id"`, a second
 * object) is JSON.parse'd instead, so the id hub routes by is the only one the client can read.
 */
export class RawToolResult {
  // Never an error: lines that may carry `"isError": true` take the parsed path (see fastResponse).
  readonly isError = undefined;

  constructor(
    private readonly head: string,
    private readonly tail: string,
  ) {}

  /** About the line's size in bytes (its characters; the audit log's `bytes`). */
  get size(): number {
    return this.head.length + this.tail.length;
  }

  /** The response line for the caller's id (already JSON-encoded). */
  lineFor(idJson: string): string {
    return `${this.head}${idJson}${this.tail}\n`;
  }
}

const ID_FIRST = '{"jsonrpc":"2.0","id":"hub-';
const ID_LAST = ',"jsonrpc":"2.0","id":"hub-';
const RESULT_FIRST = '{"result":{';
const RESULT_KEY = '","result":{';
// Lines that may be errors (or mention isError at all with `true`) are parsed to read the first text.
const MAY_BE_ERROR = /"isError"\s*:\s*true/;

export interface FastResponse {
  id: string;
  result: RawToolResult;
}

const digitsBetween = (line: string, from: number, to: number): boolean => {
  if (to <= from || to - from > 15) return false;
  for (let i = from; i < to; i += 1) {
    const code = line.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
};

/** Whether the quote at `at` is escaped (an odd number of backslashes before it). */
function escapedQuote(line: string, at: number): boolean {
  let count = 0;
  for (let i = at - 1; line.charCodeAt(i) === 92; i -= 1) count += 1;
  return count % 2 === 1;
}

/**
 * Index of the `}` closing the object that opens at `from`, or -1 when the brackets do not
 * balance (string-aware: brackets and quotes inside strings do not count). Outside strings it
 * steps a character at a time (keys and values are mostly strings, jumped with native indexOf):
 * a regex exec per bracket was the largest hub-only item in callgrind's profile of the hot path.
 */
export function objectEnd(line: string, from: number): number {
  if (line.charCodeAt(from) !== 123) return -1;
  let depth = 0;
  for (let at = from; at < line.length; at += 1) {
    const code = line.charCodeAt(at);
    if (code === 34) {
      let close = line.indexOf('"', at + 1);
      while (close !== -1 && escapedQuote(line, close)) close = line.indexOf('"', close + 1);
      if (close === -1) return -1;
      at = close;
    } else if (code === 123 || code === 91) depth += 1;
    else if (code === 125 || code === 93) {
      depth -= 1;
      if (depth === 0) return code === 125 ? at : -1;
    }
  }
  return -1;
}

// A native substring search first: the regex runs only on the rare line that names isError at all.
// A 2026-07-28 child's `input_required` result is no answer yet: it is parsed and acted on
// (proxy/child/input-required.ts), never passed on as a plain success.
const mayBeError = (line: string): boolean =>
  (line.includes('"isError"') && MAY_BE_ERROR.test(line)) || line.includes('"input_required"');

/**
 * The result line of one of our `hub-N` calls in a known key order, or undefined (parse it).
 * The id is checked by position: in valid JSON a quote after `:`, `,` or a digit is never an
 * escaped one, so `,"id":"hub-N"}` ending the line (or the line's first members) is the
 * top-level id, whatever text the result holds.
 */
export function fastResponse(line: string): FastResponse | undefined {
  if (line.startsWith(RESULT_FIRST)) {
    if (line.charCodeAt(line.length - 1) !== 125 || line.charCodeAt(line.length - 2) !== 34) return undefined;
    const at = line.lastIndexOf(ID_LAST);
    if (at === -1 || !digitsBetween(line, at + ID_LAST.length, line.length - 2)) return undefined;
    if (mayBeError(line)) return undefined;
    // Nothing may sit between the result object and our id (another "id" would be read as well).
    if (objectEnd(line, RESULT_FIRST.length - 1) !== at - 1) return undefined;
    const idStart = at + ID_LAST.length - 5;
    return {
      id: line.slice(idStart + 1, line.length - 2),
      result: new RawToolResult(line.slice(0, idStart), '}'),
    };
  }
  if (line.startsWith(ID_FIRST)) {
    const close = line.indexOf('"', ID_FIRST.length);
    if (close === -1 || !digitsBetween(line, ID_FIRST.length, close)) return undefined;
    if (!line.startsWith(RESULT_KEY, close) || line.charCodeAt(line.length - 1) !== 125) return undefined;
    if (mayBeError(line)) return undefined;
    // The result object must close the line: a member after it (a second "id") is not passed on.
    if (objectEnd(line, close + RESULT_KEY.length - 1) !== line.length - 2) return undefined;
    const idStart = ID_FIRST.length - 5;
    return {
      id: line.slice(idStart + 1, close),
      result: new RawToolResult(line.slice(0, idStart), line.slice(close + 1)),
    };
  }
  return undefined;
}
