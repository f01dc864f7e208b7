// Where JSON text first goes wrong, as line and column: JSON.parse names a position for some
// errors and none for others ("Unexpected end of JSON input"), and a person fixing db.json by
// hand needs the place. A plain scanner of the JSON grammar; it only locates, never builds.

export interface JsonErrorPlace {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// eslint-disable-next-line no-control-regex -- JSON forbids raw control characters in strings
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

class Stop extends Error {
  constructor(readonly at: number) {
    super('json error');
  }
}

/** The first place text stops being valid JSON, or undefined when it is valid. */
export function locateJsonError(text: string): JsonErrorPlace | undefined {
  let at = 0;
  const space = () => {
    while (at < text.length && WHITESPACE.has(text[at]!)) at += 1;
  };
  const expect = (char: string) => {
    space();
    if (text[at] !== char) throw new Stop(at);
    at += 1;
  };
  const token = (pattern: RegExp) => {
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (!match) throw new Stop(at);
    at += match[0].length;
  };
  const value = (depth: number): void => {
    if (depth > 512) throw new Stop(at);
    space();
    const char = text[at];
    if (char === '{' || char === '[') {
      const close = char === '{' ? '}' : ']';
      at += 1;
      space();
      if (text[at] === close) {
        at += 1;
        return;
      }
      for (;;) {
        if (close === '}') {
          space();
          token(STRING);
          expect(':');
        }
        value(depth + 1);
        space();
        if (text[at] === ',') at += 1;
        else return expect(close);
      }
    }
    if (char === '"') return token(STRING);
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return;
      }
    }
    token(NUMBER);
  };
  try {
    value(0);
    space();
    if (at < text.length) throw new Stop(at);
    return undefined;
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    return placeOf(text, error.at);
  }
}

/** Line and column (both from 1) of offset in text. */
export function placeOf(text: string, offset: number): JsonErrorPlace {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { offset, line, column: offset - before.lastIndexOf('\n') };
}
