// Every source file's first line says what it owns (issue 28): scripts/file-heads.mjs writes the
// lines of scripts/file-heads.json as heads, and `npm run heads:check` lists the files without one.
import { spawnSync } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT = join(ROOT, 'scripts/file-heads.mjs');
const heads = (...args: string[]) =>
  spawnSync(process.execPath, [SCRIPT, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });

const temps: string[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map(dir => rm(dir, { recursive: true, force: true })));
});

/** A tree of sources and a map for it; returns its root and the map's path. */
async function tree(files: Record<string, string>, map: Record<string, string>) {
  const root = await mkdtemp(join(tmpdir(), 'hub-heads-'));
  temps.push(root);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), text);
  }
  const mapFile = join(root, 'map.json');
  await writeFile(mapFile, JSON.stringify(map));
  return { root, mapFile, read: (path: string) => readFile(join(root, path), 'utf8') };
}

describe('file heads', () => {
  // A new file gets its line in scripts/file-heads.json (node scripts/file-heads.mjs writes it) or its own first comment.
  test('every source file in src/ and web/ starts with a comment saying what it owns', () => {
    const run = heads('--check');
    expect(run.stdout).toBe('');
    expect(run.status).toBe(0);
  });

  test('every line of the map is one line of at most 100 characters, without the // prefix', async () => {
    const map = JSON.parse(await readFile(join(ROOT, 'scripts/file-heads.json'), 'utf8')) as Record<string, unknown>;
    const bad = Object.entries(map).filter(
      ([path, head]) =>
        !/^(src|web)\/.+\.[cm]?[jt]s$/.test(path) ||
        typeof head !== 'string' ||
        head.length > 100 ||
        head.includes('\n') ||
        head.startsWith('//'),
    );
    expect(bad).toEqual([]);
    expect(Object.keys(map).length).toBeGreaterThan(250);
  });

  test('the head goes first, after a shebang, in the file line ends; a second run changes nothing', async () => {
    const { root, mapFile, read } = await tree(
      {
        'src/a.ts': "import { x } from './x.js';\nexport const a = x;\n",
        'src/bin.ts': "#!/usr/bin/env node\nimport './a.js';\n",
        'src/crlf.ts': 'export const c = 1;\r\nexport const d = 2;\r\n',
        'src/deep/told.ts': '// Already says what it owns.\nexport const t = 1;\n',
        'src/block.ts': '/* A block comment counts as a head. */\nexport const b = 1;\n',
        'web/page.js': "import { html } from 'htm/preact';\n",
        'src/types.d.ts': 'export type T = 1;\n',
      },
      {
        'src/a.ts': 'What a owns.',
        'src/bin.ts': 'The bin.',
        'src/crlf.ts': 'Windows line ends.',
        'src/deep/told.ts': 'Never written: it has a head.',
        'web/page.js': 'The page.',
        'src/gone.ts': 'A file moved away since the map was written.',
      },
    );
    const before = heads('--check', root);
    expect(before.status).toBe(1);
    expect(before.stdout.trim().split('\n')).toEqual(['src/a.ts', 'src/bin.ts', 'src/crlf.ts', 'web/page.js']);

    const first = heads('--map', mapFile, root);
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('4 head(s) written');
    expect(first.stderr).toContain('not found (moved or removed?): src/gone.ts');
    expect(await read('src/a.ts')).toBe("// What a owns.\nimport { x } from './x.js';\nexport const a = x;\n");
    expect(await read('src/bin.ts')).toBe("#!/usr/bin/env node\n// The bin.\nimport './a.js';\n");
    expect(await read('src/crlf.ts')).toBe('// Windows line ends.\r\nexport const c = 1;\r\nexport const d = 2;\r\n');
    expect(await read('src/deep/told.ts')).toBe('// Already says what it owns.\nexport const t = 1;\n');
    expect(await read('web/page.js')).toBe("// The page.\nimport { html } from 'htm/preact';\n");

    const written = await Promise.all(['src/a.ts', 'src/bin.ts', 'src/crlf.ts', 'web/page.js'].map(read));
    const second = heads('--map', mapFile, root);
    expect(second.status).toBe(0);
    expect(second.stdout).toContain('0 head(s) written');
    expect(await Promise.all(['src/a.ts', 'src/bin.ts', 'src/crlf.ts', 'web/page.js'].map(read))).toEqual(written);
    expect(heads('--check', root)).toMatchObject({ status: 0, stdout: '' });
  });

  test('a file the map does not name is left without a head, and said so with exit 1', async () => {
    const { root, mapFile, read } = await tree(
      { 'src/named.ts': 'export const n = 1;\n', 'src/new.ts': 'export const m = 1;\n' },
      { 'src/named.ts': 'Named.' },
    );
    const run = heads('--map', mapFile, root);
    expect(run.status).toBe(1);
    expect(run.stdout.trim().split('\n')).toEqual(['1 head(s) written', 'src/new.ts']);
    expect(run.stderr).toContain('1 source file(s) still without a head');
    expect(await read('src/new.ts')).toBe('export const m = 1;\n');
  });

  test('a map line that is not one short line is refused before any file is touched', async () => {
    const { root, mapFile, read } = await tree(
      { 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 1;\n' },
      { 'src/a.ts': 'Fine.', 'src/b.ts': `Two\nlines.` },
    );
    const run = heads('--map', mapFile, root);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('src/b.ts: its head spans more than one line');
    expect(await read('src/a.ts')).toBe('export const a = 1;\n');
  });
});
