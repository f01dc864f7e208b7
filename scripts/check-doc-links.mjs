#!/usr/bin/env node
// Every relative link and anchor between the project's Markdown pages resolves: README.md,
// CONTRIBUTING.md, docs/**/*.md and bench/README.md, and whatever file (and heading) they point
// at inside the repository. Anchors are GitHub's: the heading's text, lowercased, punctuation
// dropped, spaces as hyphens, a repeated heading suffixed -1, -2.
//   node scripts/check-doc-links.mjs [root]    prints each broken link; exit 1 if any
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The pages whose links are checked, relative to root. */
export function pagesOf(root) {
  const pages = ['README.md', 'CONTRIBUTING.md', 'bench/README.md'].filter(page => existsSync(join(root, page)));
  const walk = folder => {
    if (!existsSync(join(root, folder))) return;
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) pages.push(path);
    }
  };
  walk('docs');
  return pages;
}

/** Lines outside fenced code blocks, with inline code spans blanked (a link in code is not a link). */
function proseLines(text) {
  const lines = [];
  let fence = null;
  for (const line of text.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && marker) fence = marker[0];
    else if (fence !== null && marker?.[0] === fence) fence = null;
    else if (fence === null) lines.push(line.replace(/`[^`]*`/g, match => ' '.repeat(match.length)));
  }
  return lines;
}

export function slugOf(heading) {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's text only
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a page offers: its headings' slugs (GitHub's de-duplication) and explicit ids. */
export function anchorsOf(text) {
  const anchors = new Set();
  const seen = new Map();
  let fence = null;
  for (const line of text.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && marker) fence = marker[0];
    else if (fence !== null && marker?.[0] === fence) fence = null;
    if (fence !== null || marker) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const slug = slugOf(heading);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const id of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id[1]);
  }
  return anchors;
}

/** Link targets on a page: inline links and images, and reference definitions. */
function targetsOf(text) {
  const targets = [];
  proseLines(text).forEach((line, index) => {
    for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      targets.push({ target: match[1], line: index + 1 });
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
    if (definition) targets.push({ target: definition[1], line: index + 1 });
  });
  return targets;
}

/** Every broken link on the checked pages, as "page: target (why)". */
export function brokenLinks(root) {
  const absoluteRoot = resolve(root);
  const texts = new Map();
  const read = path => {
    if (!texts.has(path)) texts.set(path, readFileSync(path, 'utf8'));
    return texts.get(path);
  };
  const broken = [];
  for (const page of pagesOf(absoluteRoot)) {
    const pagePath = join(absoluteRoot, page);
    for (const { target } of targetsOf(read(pagePath))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // another site
      const [pathPart, anchor] = target.split('#', 2);
      const file = pathPart === '' ? pagePath : resolve(dirname(pagePath), decodeURIComponent(pathPart));
      const say = why => broken.push(`${page}: ${target} (${why})`);
      if (file !== absoluteRoot && !file.startsWith(absoluteRoot + sep)) {
        say('outside the repository');
        continue;
      }
      if (!existsSync(file)) {
        say(`no such file: ${relative(absoluteRoot, file)}`);
        continue;
      }
      if (anchor === undefined || anchor === '') continue;
      if (statSync(file).isDirectory() || !file.endsWith('.md')) {
        say('an anchor into something that is not a Markdown page');
        continue;
      }
      if (!anchorsOf(read(file)).has(decodeURIComponent(anchor)))
        say(`no heading #${anchor} in ${relative(absoluteRoot, file)}`);
    }
  }
  return broken;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url));
  const broken = brokenLinks(root);
  for (const line of broken) process.stderr.write(`${line}\n`);
  const pages = pagesOf(resolve(root)).length;
  process.stdout.write(`${pages} pages, ${broken.length} broken link${broken.length === 1 ? '' : 's'}\n`);
  process.exit(broken.length === 0 ? 0 : 1);
}
