import { isDeepStrictEqual } from 'node:util';

// Minimal edits of a JSON text that is already known to parse: set or delete one member
// of an object, leaving every other byte (the person's formatting) as it was. The caller
// checks the result parses to the intended data and falls back to a full rewrite if not.
type JsonNode =
  { kind: 'object'; start: number; end: number; members: Member[] } | { kind: 'value'; start: number; end: number };
type Member = { key: string; keyStart: number; value: JsonNode };

function scan(text: string): JsonNode {
  let index = 0;
  const skip = () => {
    while (/\s/.test(text[index] ?? '')) index++;
  };
  const string = (): string => {
    const start = index++;
    while (text[index] !== '"') index += text[index] === '\\' ? 2 : 1;
    index++;
    return JSON.parse(text.slice(start, index)) as string;
  };
  const value = (): JsonNode => {
    skip();
    const start = index;
    const char = text[index];
    if (char === '{') {
      index++;
      const members: Member[] = [];
      for (skip(); text[index] !== '}'; skip()) {
        if (text[index] === ',') {
          index++;
          skip();
        }
        const keyStart = index;
        const key = string();
        skip();
        index++; // ':'
        members.push({ key, keyStart, value: value() });
        skip();
      }
      return { kind: 'object', start, end: ++index, members };
    }
    if (char === '[') {
      index++;
      for (skip(); text[index] !== ']'; skip()) {
        if (text[index] === ',') index++;
        else value();
      }
      return { kind: 'value', start, end: ++index };
    }
    if (char === '"') string();
    else while (index < text.length && !/[\s,}\]]/.test(text[index]!)) index++;
    return { kind: 'value', start, end: index };
  };
  return value();
}

const lineIndent = (text: string, position: number): string =>
  /^[ \t]*/.exec(text.slice(text.lastIndexOf('\n', position - 1) + 1))![0];

function find(root: JsonNode, path: readonly string[]): JsonNode | undefined {
  let node: JsonNode | undefined = root;
  for (const key of path)
    node = node?.kind === 'object' ? node.members.findLast(member => member.key === key)?.value : undefined;
  return node;
}

// A value rendered at the indentation of the line it starts on.
const render = (value: unknown, unit: string, indent: string): string =>
  JSON.stringify(value, null, unit).replace(/\n/g, `\n${indent}`);

/** text with object[path][key] = value, or undefined when the text has no object at path. */
export function setMember(
  text: string,
  path: readonly string[],
  key: string,
  value: unknown,
  unit: string,
): string | undefined {
  const root = scan(text);
  const object = find(root, path);
  if (object?.kind !== 'object') {
    if (path.length === 0) return undefined;
    return setMember(text, path.slice(0, -1), path.at(-1)!, { [key]: value }, unit);
  }
  const existing = object.members.findLast(member => member.key === key);
  if (existing) {
    const indent = lineIndent(text, existing.keyStart);
    return text.slice(0, existing.value.start) + render(value, unit, indent) + text.slice(existing.value.end);
  }
  const last = object.members.at(-1);
  if (last) {
    const indent = lineIndent(text, last.keyStart);
    const sameLine = !text.slice(object.start, last.keyStart).includes('\n');
    const separator = sameLine ? ' ' : `\n${indent}`;
    return `${text.slice(0, last.value.end)},${separator}${JSON.stringify(key)}: ${render(value, unit, sameLine ? lineIndent(text, object.start) : indent)}${text.slice(last.value.end)}`;
  }
  const outer = lineIndent(text, object.start);
  return `${text.slice(0, object.start)}{\n${outer}${unit}${JSON.stringify(key)}: ${render(value, unit, outer + unit)}\n${outer}}${text.slice(object.end)}`;
}

/** text without object[path][key] (its comma too), or undefined when there is no such member. */
export function deleteMember(text: string, path: readonly string[], key: string): string | undefined {
  const object = find(scan(text), path);
  if (object?.kind !== 'object') return undefined;
  const position = object.members.findLastIndex(member => member.key === key);
  if (position < 0) return undefined;
  const members = object.members;
  const member = members[position]!;
  if (members.length === 1) return `${text.slice(0, object.start)}{}${text.slice(object.end)}`;
  // Cut from the end of the previous value (taking its comma), or up to the next key.
  if (position > 0) return text.slice(0, members[position - 1]!.value.end) + text.slice(member.value.end);
  return text.slice(0, member.keyStart) + text.slice(members[1]!.keyStart);
}

/** The edited text when it parses to exactly `expected`; undefined means "rewrite the file". */
export function checkedEdit(edited: string | undefined, expected: unknown): string | undefined {
  if (edited === undefined) return undefined;
  try {
    return isDeepStrictEqual(JSON.parse(edited), expected) ? edited : undefined;
  } catch {
    return undefined;
  }
}
