/**
 * A child's tools/call result kept as the bytes it wrote: the fast lane finds our `hub-N` id
 * without JSON.parse and splices the caller's id in its place, so `result` is never parsed or
 * re-serialized. Only two common key orders qualify (anything else is JSON.parse'd as before):
 *   `{"result":{…},"jsonrpc":"2.0","id":"hub-N"}`   (the TypeScript SDK)
 *   `{"jsonrpc":"2.0","id":"hub-N","result":{…}}`   (Python, Go and most others)
 * The line is trusted to be the valid JSON the child owes us; a malformed one reaches the
 * client as it is, where it is dropped like any unparsable line.
 */
export class RawToolResult {
  // Never an error: lines that may carry `"isError": true` take the parsed path (see fastResponse).
  readonly isError = undefined;

  constructor(
    private readonly head: string,
    private readonly tail: string,
  ) {}

  /** The response line for the caller's id (already JSON-encoded). */
  lineFor(idJson: string): string {
    return `${this.head}${idJson}${this.tail}\n`;
  }
}

/** Callers (by their `_meta` object) that can take a RawToolResult instead of a parsed one. */
export const takesRawResults = new WeakSet<object>();

const ID_FIRST = '{"jsonrpc":"2.0","id":"hub-';
const ID_LAST = ',"jsonrpc":"2.0","id":"hub-';
const RESULT_FIRST = '{"result":{';
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
    if (MAY_BE_ERROR.test(line)) return undefined;
    const idStart = at + ID_LAST.length - 5;
    return {
      id: line.slice(idStart + 1, line.length - 2),
      result: new RawToolResult(line.slice(0, idStart), '}'),
    };
  }
  if (line.startsWith(ID_FIRST)) {
    const close = line.indexOf('"', ID_FIRST.length);
    if (close === -1 || !digitsBetween(line, ID_FIRST.length, close)) return undefined;
    if (!line.startsWith(',"result":{', close + 1) || line.charCodeAt(line.length - 1) !== 125) return undefined;
    if (MAY_BE_ERROR.test(line)) return undefined;
    const idStart = ID_FIRST.length - 5;
    return {
      id: line.slice(idStart + 1, close),
      result: new RawToolResult(line.slice(0, idStart), line.slice(close + 1)),
    };
  }
  return undefined;
}
