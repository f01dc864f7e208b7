#!/usr/bin/env node
// Every source file's first line says what it owns (issue 28): a comment, after the shebang when
// there is one. scripts/file-heads.json holds the line for each file that had none; this writes
// `// <line>` into the files still without a head, and leaves every other file as it is.
//   node scripts/file-heads.mjs [root]            writes the heads; exit 1 if a file is left without one
//   node scripts/file-heads.mjs --check [root]    lists the files without a head; exit 1 if any
// root defaults to this repository; `--map <file>` reads another map (tests).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where sources live, relative to root: hub's code and the dashboard's page. */
export const SOURCE_FOLDERS = ['src', 'web'];
const SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
/** A head is one line a person reads at a glance. */
export const HEAD_MAX_CHARS = 100;

/** Source files under root, as root-relative paths with `/`, sorted. */
export function sourceFiles(root) {
  const files = [];
  const walk = folder => {
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(path);
    }
  };
  for (const folder of SOURCE_FOLDERS) if (existsSync(join(root, folder))) walk(folder);
  return files.sort();
}

const isComment = line => /^\s*(?:\/\/|\/\*)/.test(line);

/** Where the head goes: line 0, or line 1 after a shebang. */
const headIndex = lines => (lines[0]?.startsWith('#!') ? 1 : 0);

/** Whether text's first line (after a shebang) is a comment. */
export function hasHead(text) {
  const lines = text.split('\n');
  return isComment(lines[headIndex(lines)] ?? '');
}

/** text with `// head` as its first line (after a shebang), in the file's own line ends. */
export function withHead(text, head) {
  if (hasHead(text)) return text;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split('\n');
  lines.splice(headIndex(lines), 0, `// ${head}${eol === '\r\n' ? '\r' : ''}`);
  return lines.join('\n');
}

/** Why a map entry cannot be written as a head, or undefined when it can. */
export function headProblem(head) {
  if (typeof head !== 'string' || head.trim() === '') return 'is not a line of text';
  if (/[\r\n]/.test(head)) return 'spans more than one line';
  if (head.startsWith('//')) return 'starts with // (the script adds it)';
  if (head.length > HEAD_MAX_CHARS) return `is ${head.length} characters (at most ${HEAD_MAX_CHARS})`;
  return undefined;
}

/** The files under root whose first line is not a comment. */
export const headless = root => sourceFiles(root).filter(file => !hasHead(readFileSync(join(root, file), 'utf8')));

/** Writes the map's head into each file of root that has none; what it did and what is left. */
export function applyHeads(root, map) {
  const written = [];
  const stale = Object.keys(map).filter(file => !existsSync(join(root, file)));
  for (const file of sourceFiles(root)) {
    const head = map[file];
    if (head === undefined) continue;
    const text = readFileSync(join(root, file), 'utf8');
    if (hasHead(text)) continue;
    writeFileSync(join(root, file), withHead(text, head));
    written.push(file);
  }
  return { written, stale, left: headless(root) };
}

function readMap(file) {
  const map = JSON.parse(readFileSync(file, 'utf8'));
  const problems = Object.entries(map).flatMap(([path, head]) => {
    const problem = headProblem(head);
    return problem === undefined ? [] : [`${path}: its head ${problem}`];
  });
  if (problems.length > 0) throw new Error(`${file}:\n${problems.join('\n')}`);
  return map;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const mapAt = args.indexOf('--map');
  const mapFile = mapAt >= 0 ? args[mapAt + 1] : fileURLToPath(new URL('./file-heads.json', import.meta.url));
  const rest = args.filter((arg, index) => arg !== '--check' && index !== mapAt && index !== mapAt + 1);
  const root = rest[0] ?? fileURLToPath(new URL('..', import.meta.url));
  const tell = (files, why) => {
    for (const file of files) console.log(file);
    console.error(`${files.length} source file(s) ${why}: first line after any shebang must be a // comment`);
  };
  if (check) {
    const left = headless(root);
    if (left.length > 0) tell(left, 'without a head');
    process.exitCode = left.length > 0 ? 1 : 0;
  } else {
    let map;
    try {
      map = readMap(mapFile);
    } catch (error) {
      console.error(`file-heads: ${error.message}`);
      process.exit(2);
    }
    const { written, stale, left } = applyHeads(root, map);
    for (const file of stale) console.error(`not found (moved or removed?): ${file}`);
    console.log(`${written.length} head(s) written`);
    if (left.length > 0) tell(left, 'still without a head (add them to scripts/file-heads.json)');
    process.exitCode = left.length > 0 ? 1 : 0;
  }
}
