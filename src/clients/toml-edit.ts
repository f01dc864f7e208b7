// Minimal edits of a TOML text: one table replaced, added or removed, comments kept.
import { isDeepStrictEqual } from 'node:util';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';

// Minimal edits of a TOML text: replace, add or remove one table (with its subtables), leaving
// every other line, comments included, as it was. smol-toml keeps no comments, so a whole
// rewrite would drop them. Line-based: the caller checks the result parses to the intended data
// (checkedTomlEdit) and rewrites the file whole if not, so an unusual layout is never damaged.

interface Header {
  /** Index of the header line. */
  readonly line: number;
  readonly path: readonly string[];
}

const HEADER = /^\s*\[\[?([^\]]*)\]\]?\s*(?:#.*)?$/;

/** `a."b.c".'d'` → ['a', 'b.c', 'd']; undefined for anything it cannot read plainly. */
function keyPath(text: string): string[] | undefined {
  const keys: string[] = [];
  let rest = text.trim();
  while (rest.length > 0) {
    let match: RegExpExecArray | null;
    if ((match = /^"((?:[^"\\]|\\.)*)"/.exec(rest))) keys.push(JSON.parse(`"${match[1]}"`) as string);
    else if ((match = /^'([^']*)'/.exec(rest))) keys.push(match[1]!);
    else if ((match = /^[A-Za-z0-9_-]+/.exec(rest))) keys.push(match[0]);
    else return undefined;
    rest = rest.slice(match[0].length).trim();
    if (rest.startsWith('.')) rest = rest.slice(1).trim();
    else if (rest.length > 0) return undefined;
  }
  return keys;
}

const isContent = (line: string): boolean => line.trim() !== '' && !line.trim().startsWith('#');

function headers(lines: readonly string[]): Header[] {
  const found: Header[] = [];
  let inMultiline: string | undefined;
  lines.forEach((line, index) => {
    // Lines inside a multi-line string are not headers (odd counts of the quote open or close one).
    for (const quote of ['"""', "'''"]) {
      if ((inMultiline === undefined || inMultiline === quote) && line.split(quote).length % 2 === 0)
        inMultiline = inMultiline === undefined ? quote : undefined;
    }
    const match = inMultiline === undefined ? HEADER.exec(line) : null;
    if (!match) return;
    const path = keyPath(match[1]!);
    if (path) found.push({ line: index, path });
  });
  return found;
}

const startsWith = (path: readonly string[], prefix: readonly string[]): boolean =>
  path.length >= prefix.length && prefix.every((key, i) => path[i] === key);

/** Line ranges [from, to) of the table at `path` and its subtables; trailing comments stay with what follows. */
function blocks(lines: readonly string[], path: readonly string[]): [number, number][] {
  const all = headers(lines);
  const ranges: [number, number][] = [];
  all.forEach((header, i) => {
    if (!startsWith(header.path, path)) return;
    let end = i + 1 < all.length ? all[i + 1]!.line : lines.length;
    while (end > header.line + 1 && !isContent(lines[end - 1]!)) end -= 1;
    ranges.push([header.line, end]);
  });
  return ranges;
}

const blank = (line: string | undefined): boolean => line === undefined || line.trim() === '';

/**
 * lines with each range left out; the first range's place takes `replacement` when given. A blank
 * line that would double one before a removed range is dropped with it.
 */
function splice(
  lines: readonly string[],
  ranges: readonly [number, number][],
  replacement?: readonly string[],
): string {
  const removed = new Set<number>();
  for (const [from, to] of ranges) {
    for (let index = from; index < to; index += 1) removed.add(index);
    if (replacement === undefined || from !== ranges[0]![0]) {
      if (blank(lines[from - 1]) && blank(lines[to]) && to < lines.length) removed.add(to);
    }
  }
  const out: string[] = [];
  lines.forEach((line, index) => {
    if (replacement && index === ranges[0]![0]) out.push(...replacement);
    if (!removed.has(index)) out.push(line);
  });
  return out.join('\n');
}

const tableText = (path: readonly string[], value: Record<string, unknown>): string =>
  stringifyToml(path.reduceRight<Record<string, unknown>>((inner, key) => ({ [key]: inner }), value)).trimEnd();

/** text with the table [path.key] set to value (replaced in place, or appended), or undefined. */
export function setTomlTable(
  text: string,
  path: readonly string[],
  key: string,
  value: Record<string, unknown>,
): string | undefined {
  const full = [...path, key];
  const lines = text.split('\n');
  const ranges = blocks(lines, full);
  const replacement = tableText(full, value).split('\n');
  if (ranges.length === 0) {
    const body = text.replace(/\s*$/, '');
    return `${body}${body === '' ? '' : '\n\n'}${replacement.join('\n')}\n`;
  }
  return splice(lines, ranges, replacement);
}

/** text without the table [path.key] and its subtables, or undefined when it has none. */
export function deleteTomlTable(text: string, path: readonly string[], key: string): string | undefined {
  const lines = text.split('\n');
  const ranges = blocks(lines, [...path, key]);
  if (ranges.length === 0) return undefined;
  return splice(lines, ranges);
}

// Compared as plain JSON: smol-toml builds null-prototype objects, the edited data plain ones.
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

/** The edited text when it parses to exactly `expected`; undefined means "rewrite the file". */
export function checkedTomlEdit(edited: string | undefined, expected: unknown): string | undefined {
  if (edited === undefined) return undefined;
  try {
    return isDeepStrictEqual(plain(parseToml(edited)), plain(expected)) ? edited : undefined;
  } catch {
    return undefined;
  }
}
