// The documentation as a reader meets it: the README stays a front page, every relative link and
// anchor between README.md, CONTRIBUTING.md, docs/**/*.md and bench/README.md resolves, and
// docs/cli.md says what the built CLI prints (scripts/docs-cli.mjs regenerates it).
import { spawnSync } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const node = (...args: string[]) => spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });

const temps: string[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map(dir => rm(dir, { recursive: true, force: true })));
});
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hub-docs-'));
  temps.push(dir);
  return dir;
};

describe('links between the pages', () => {
  test('every relative link and anchor resolves', () => {
    const run = node('scripts/check-doc-links.mjs');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    // README, CONTRIBUTING, bench/README and the docs pages: the check saw them all.
    expect(Number(/^(\d+) pages/.exec(run.stdout)?.[1])).toBeGreaterThanOrEqual(15);
  });

  test('a missing page, a missing heading and a link out of the repository are each reported', async () => {
    const root = await tempDir();
    await mkdir(join(root, 'docs/design'), { recursive: true });
    await writeFile(
      join(root, 'README.md'),
      [
        '# Front',
        '',
        '[ok](docs/a.md#two-words-here) [gone](docs/missing.md) [no heading](docs/a.md#nope)',
        '[out](../elsewhere.md) [web](https://example.com/x.md#y) [self](#front)',
        '`[in code](docs/none.md)`',
        '',
        '```',
        '[in a fence](docs/none.md)',
        '```',
        '',
        '[ref]: docs/design/b.md#b-record',
      ].join('\n'),
    );
    await writeFile(
      join(root, 'docs/a.md'),
      "# A\n\n## Two words: `here`\n\n[back](../README.md#front) [up](design/b.md#hub's)\n",
    );
    await writeFile(join(root, 'docs/design/b.md'), "# B record\n\n## hub's\n");
    const run = node('scripts/check-doc-links.mjs', root);
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n').sort()).toEqual([
      'README.md: ../elsewhere.md (outside the repository)',
      'README.md: docs/a.md#nope (no heading #nope in docs/a.md)',
      'README.md: docs/missing.md (no such file: docs/missing.md)',
      "docs/a.md: design/b.md#hub's (no heading #hub's in docs/design/b.md)",
    ]);
  });
});

describe('the README', () => {
  test('is a front page: at most 300 lines, every docs page in its index', async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
    for (const page of ['clients', 'cli', 'tools', 'processes', 'servers', 'security', 'exposure', 'protocol']) {
      expect(readme).toContain(`(docs/${page}.md)`);
    }
    for (const page of ['configuration', 'dashboard', 'troubleshooting']) expect(readme).toContain(`(docs/${page}.md)`);
    expect(readme).toContain('(CONTRIBUTING.md)');
    expect(readme).toContain('(bench/README.md)');
  });
});

describe('docs/cli.md', () => {
  test('is what the CLI usage table gives (npm run docs:cli rewrites it)', () => {
    const run = node('scripts/docs-cli.mjs', '--check');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  test('a stale copy is caught: a command left out, or an edited usage line', async () => {
    const page = await readFile(join(ROOT, 'docs/cli.md'), 'utf8');
    const dir = await tempDir();
    const dropped = join(dir, 'dropped.md');
    await writeFile(dropped, page.replace(/### hub-mcp stop\n\n```text\n[^`]*```\n\n/, ''));
    const edited = join(dir, 'edited.md');
    await writeFile(edited, page.replace('Usage: hub-mcp ps [', 'Usage: hub-mcp ps [--all] ['));
    for (const file of [dropped, edited]) {
      expect(await readFile(file, 'utf8')).not.toBe(page);
      const run = node('scripts/docs-cli.mjs', '--check', '--file', file);
      expect(run.status, run.stderr).toBe(1);
      expect(run.stderr).toContain('is stale');
    }
    // Without --check the script writes the page back as the CLI prints it.
    expect(node('scripts/docs-cli.mjs', '--file', dropped).status).toBe(0);
    expect(await readFile(dropped, 'utf8')).toBe(page);
  });
});
