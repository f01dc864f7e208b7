#!/usr/bin/env node
// After README.md was cut to a front page (issue 30): does everything an older README said still
// stand somewhere? Compares the README of a git revision with today's README.md, CONTRIBUTING.md,
// docs/**/*.md and bench/README.md: every heading, every code block, and every sentence and
// table cell (whitespace, table padding and link targets ignored). Prints what is not found.
//   node scripts/readme-moved-check.mjs <rev>     e.g. the commit before the cut; exit 1 if anything is missing
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pagesOf } from './check-doc-links.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const rev = process.argv[2];
if (!rev) {
  process.stderr.write('usage: node scripts/readme-moved-check.mjs <git revision of the old README>\n');
  process.exit(2);
}
const old = execFileSync('git', ['show', `${rev}:README.md`], { cwd: root, encoding: 'utf8' });

const normal = text =>
  text
    .replace(/\]\([^)]*\)/g, ']') // link targets moved with the pages
    .replace(/\s+/g, ' ')
    .trim();
const corpus = normal(
  pagesOf(root)
    .map(page => readFileSync(join(root, page), 'utf8'))
    .join('\n')
    .replace(/^\|.*$/gm, row => row.replace(/ {2,}/g, ' ')), // table padding
);

const missing = [];
const want = (kind, text) => {
  const needle = normal(text);
  if (needle !== '' && !corpus.includes(needle)) missing.push(`${kind}: ${needle.slice(0, 160)}`);
};

let fence = null;
let block = [];
let paragraph = [];
let indented = false;
const flush = () => {
  const text = paragraph.join(' ');
  paragraph = [];
  if (text.startsWith('|')) return;
  // Sentences, cut where a period, colon or semicolon ends a clause.
  for (const piece of text.split(/(?<=[.;:])\s+(?=[A-Z`(*"])/)) want('text', piece.replace(/^[-*] |^\d+\. /, ''));
};
for (const line of old.split('\n')) {
  const marker = /^\s*(`{3,})/.exec(line)?.[1];
  if (fence === null && marker) {
    flush();
    fence = marker;
    block = [];
    continue;
  }
  if (fence !== null) {
    if (marker === fence) {
      want('code block', block.join('\n'));
      fence = null;
    } else block.push(line);
    continue;
  }
  const heading = /^#{1,6}\s+(.*)$/.exec(line)?.[1];
  if (heading !== undefined) {
    flush();
    want('heading', `# ${heading}`.replace(/^# /, ''));
    continue;
  }
  if (line.startsWith('|')) {
    flush();
    if (!/^\|[\s|:-]+\|$/.test(line)) for (const cell of line.split(/(?<!\\)\|/).slice(1, -1)) want('table cell', cell);
    continue;
  }
  // An indented code block starts at exactly four spaces after a blank line (deeper lines continue it).
  if (line.trim() === '') flush();
  else if ((paragraph.length === 0 && /^ {4}\S/.test(line)) || (indented && /^ {4}/.test(line))) {
    indented = true;
    want('code line', line);
    continue;
  } else paragraph.push(line.trim());
  indented = false;
}
flush();

for (const line of missing) process.stdout.write(`${line}\n`);
process.stdout.write(`${missing.length} piece${missing.length === 1 ? '' : 's'} of the README at ${rev} not found\n`);
process.exit(missing.length === 0 ? 0 : 1);
