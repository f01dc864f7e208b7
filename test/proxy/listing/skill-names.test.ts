// Skills under hub's names (src/proxy/listing/skill-names.ts): pure functions, no child.
import { expect, test } from 'vitest';
import {
  exposedRootOf,
  exposedSkillName,
  pathUnder,
  rewriteSkillName,
  skillRoot,
} from '../../../src/proxy/listing/skill-names.js';

test('a skill is named "<server>-<name>" under a renamed folder, as Agent Skills names allow', () => {
  expect(skillRoot('skill://git-flow/SKILL.md')).toBe('skill://git-flow');
  expect(skillRoot('skill://acme/tools/git/SKILL.md')).toBe('skill://acme/tools/git');
  for (const bad of ['skill://SKILL.md', 'skill:///SKILL.md', 'skill://git/README.md', 'SKILL.md'])
    expect(skillRoot(bad)).toBeUndefined();
  expect(exposedSkillName('docs', 'git-flow')).toBe('docs-git-flow');
  expect(exposedSkillName('my--srv', 'x')).toBe('my-srv-x');
  expect(exposedSkillName('docs', 'a'.repeat(64))).toBeUndefined();
  expect(exposedRootOf('skill://acme/tools/git', 'docs-git')).toBe('skill://acme/tools/docs-git');
  expect(exposedRootOf('skill://git', 'docs-git')).toBe('skill://docs-git');
});

test('a path is under its root only without "..", ".", empty or encoded separators', () => {
  const root = 'skill://docs-git';
  expect(pathUnder(root, 'skill://docs-git/SKILL.md')).toBe('SKILL.md');
  expect(pathUnder(root, 'skill://docs-git/references/a.md')).toBe('references/a.md');
  for (const uri of [
    'skill://docs-git/../etc/passwd',
    'skill://docs-git/%2e%2E/x',
    'skill://docs-git/a//b',
    'skill://docs-git/a%2Fb',
    'skill://docs-git/a%5Cb',
    'skill://docs-git/./x',
    'skill://docs-gitx/SKILL.md',
    'skill://docs-git/',
    'skill://docs-git/%zz',
  ])
    expect(pathUnder(root, uri), uri).toBeUndefined();
});

test("the SKILL.md hub serves says hub's name, and nothing else of it changes", () => {
  const text = '---\nname: git\ndescription: "d: x"\nname-like: keep\n---\nname: body stays\n';
  expect(rewriteSkillName(text, 'docs-git')).toBe(
    '---\nname: docs-git\ndescription: "d: x"\nname-like: keep\n---\nname: body stays\n',
  );
  expect(rewriteSkillName('\uFEFF---\r\nname: git\r\n---\r\nbody', 'docs-git')).toBe(
    '\uFEFF---\r\nname: docs-git\r\n---\r\nbody',
  );
  expect(rewriteSkillName('no frontmatter\nname: x\n', 'docs-git')).toBeUndefined();
  expect(rewriteSkillName('---\ndescription: d\n---\n', 'docs-git')).toBeUndefined();
});
