// Minimal edits of a JSONC config text: one member set or deleted, the person's layout kept.
import { isDeepStrictEqual } from 'node:util';
import {
  applyEdits,
  findNodeAtLocation,
  modify,
  parse,
  parseTree,
  printParseErrorCode,
  type Node,
  type ParseError,
} from 'jsonc-parser';

// Client JSON files are JSONC: VS Code's and Cursor's mcp.json may hold comments and trailing
// commas. jsonc-parser (Microsoft's, what VS Code itself uses) reads and locates; the splice
// that sets or deletes one member is hand-written because it keeps more of the person's text:
// jsonc-parser's `modify` reformats the whole line around its edit (a one-line neighbour such
// as `"b": { "command": "b" }` is spread over three lines) and a delete takes the comments
// next to the member with it. `modify` is the fallback when the splice does not check out.
const OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true };

// A byte order mark as a space: same length, so offsets stay those of the file.
const withoutBom = (text: string): string => text.replace(/^\uFEFF/, ' ');

/** The data of a JSONC text; throws naming the first problem and where it is. */
export function parseJsonc(text: string): unknown {
  const errors: ParseError[] = [];
  const data: unknown = parse(withoutBom(text), errors, OPTIONS);
  const first = errors[0];
  if (first) {
    const before = text.slice(0, first.offset).split('\n');
    throw new Error(
      `${printParseErrorCode(first.error)} at line ${before.length}, column ${before.at(-1)!.length + 1}`,
    );
  }
  return data;
}

const eolOf = (text: string): string => (text.includes('\r\n') ? '\r\n' : '\n');

const lineStart = (text: string, position: number): number => text.lastIndexOf('\n', position - 1) + 1;

const lineIndent = (text: string, position: number): string =>
  /^[ \t]*/.exec(text.slice(lineStart(text, position)))![0];

// A value rendered at the indentation of the line it starts on, with the file's line ends.
const render = (value: unknown, unit: string, indent: string, eol: string): string =>
  JSON.stringify(value, null, unit).replace(/\n/g, `${eol}${indent}`);

function objectAt(text: string, path: readonly string[]): Node | undefined {
  const root = parseTree(withoutBom(text), [], OPTIONS);
  const node = root && findNodeAtLocation(root, [...path]);
  return node?.type === 'object' ? node : undefined;
}

const members = (object: Node): Node[] => object.children ?? [];
const keyOf = (member: Node): unknown => member.children?.[0]?.value;
const end = (node: Node): number => node.offset + node.length;

// After a member on its own line: an optional comma, an optional comment, then the line end.
const REST_OF_LINE = /^([ \t]*,)?([ \t]*(?:\/\/[^\r\n]*|\/\*[^\r\n]*?\*\/))?[ \t]*(?=\r?\n)/;

/** text with object[path][key] = value, or undefined when the text has no object at path. */
export function setMember(
  text: string,
  path: readonly string[],
  key: string,
  value: unknown,
  unit: string,
): string | undefined {
  const object = objectAt(text, path);
  if (!object) {
    if (path.length === 0) return undefined;
    return setMember(text, path.slice(0, -1), path.at(-1)!, { [key]: value }, unit);
  }
  const eol = eolOf(text);
  const existing = members(object).findLast(member => keyOf(member) === key);
  const valueNode = existing?.children?.[1];
  if (existing && valueNode) {
    const indent = lineIndent(text, existing.offset);
    return text.slice(0, valueNode.offset) + render(value, unit, indent, eol) + text.slice(end(valueNode));
  }
  const last = members(object).at(-1);
  const property = (indent: string) => `${JSON.stringify(key)}: ${render(value, unit, indent, eol)}`;
  if (last) {
    const indent = lineIndent(text, last.offset);
    const sameLine = !text.slice(object.offset, last.offset).includes('\n');
    const rest = REST_OF_LINE.exec(text.slice(end(last)));
    if (!sameLine && rest) {
      // A new line after the last member's (its comment stays with it); a trailing comma stays one.
      const comma = rest[1] !== undefined;
      const at = end(last) + rest[0].length;
      return `${text.slice(0, end(last))}${comma ? '' : ','}${text.slice(end(last), at)}${eol}${indent}${property(indent)}${comma ? ',' : ''}${text.slice(at)}`;
    }
    const separator = sameLine ? ' ' : `${eol}${indent}`;
    return `${text.slice(0, end(last))},${separator}${property(sameLine ? lineIndent(text, object.offset) : indent)}${text.slice(end(last))}`;
  }
  const outer = lineIndent(text, object.offset);
  const inside = text.slice(object.offset + 1, end(object) - 1);
  // An empty object may still hold a comment: keep it, the member goes after it.
  const kept = inside.trim() === '' ? '' : `${eol}${outer}${unit}${inside.trim()}`;
  return `${text.slice(0, object.offset)}{${kept}${eol}${outer}${unit}${property(outer + unit)}${eol}${outer}}${text.slice(end(object))}`;
}

/** text without object[path][key] (its comma and its own comment lines too), or undefined when there is no such member. */
export function deleteMember(text: string, path: readonly string[], key: string): string | undefined {
  const object = objectAt(text, path);
  if (!object) return undefined;
  const all = members(object);
  const position = all.findLastIndex(member => keyOf(member) === key);
  if (position < 0) return undefined;
  const member = all[position]!;
  const previous = all[position - 1];
  const next = all[position + 1];
  const start = lineStart(text, member.offset);
  const rest = REST_OF_LINE.exec(text.slice(end(member)));
  if (text.slice(start, member.offset).trim() === '' && rest !== null) {
    // Its lines go, with the comment lines just above it (they are about it; a blank line ends them).
    let from = start;
    for (;;) {
      const above = lineStart(text, from - 1);
      if (from === 0 || !/^[ \t]*(\/\/[^\r\n]*|\/\*[^\r\n]*\*\/)[ \t]*\r?\n$/.test(text.slice(above, from))) break;
      from = above;
    }
    const to = end(member) + rest[0].length + (text.startsWith('\r\n', end(member) + rest[0].length) ? 2 : 1);
    let edited = text.slice(0, from) + text.slice(to);
    // The last member had no comma: the one before it loses its separator.
    if (next === undefined && rest[1] === undefined && previous) {
      const comma = /^[ \t]*,/.exec(edited.slice(end(previous)));
      if (comma)
        edited = edited.slice(0, end(previous) + comma[0].length - 1) + edited.slice(end(previous) + comma[0].length);
    }
    return edited;
  }
  if (all.length === 1) return `${text.slice(0, object.offset)}{}${text.slice(end(object))}`;
  // Members on one line: cut from the end of the previous value (taking its comma), or up to the next key.
  if (previous) return text.slice(0, end(previous)) + text.slice(end(member));
  return text.slice(0, member.offset) + text.slice(next!.offset);
}

/** The edited text when it parses to exactly `expected`; undefined means "try another way". */
export function checkedEdit(edited: string | undefined, expected: unknown): string | undefined {
  if (edited === undefined) return undefined;
  try {
    return isDeepStrictEqual(parseJsonc(edited), expected) ? edited : undefined;
  } catch {
    return undefined;
  }
}

/**
 * jsonc-parser's own edit: the value at path replaced whole (formatted by it), every comment and
 * line outside that value kept. The fallback when the minimal edit above does not check out.
 */
export function replaceAt(text: string, path: readonly string[], value: unknown, unit: string): string | undefined {
  try {
    const formattingOptions = {
      insertSpaces: !unit.includes('\t'),
      tabSize: unit.includes('\t') ? 1 : unit.length,
      eol: eolOf(text),
    };
    return applyEdits(text, modify(text, [...path], value, { formattingOptions }));
  } catch {
    return undefined;
  }
}
