// Minimal JSON edits keep a person's formatting; the checked edit falls back when in doubt.
import { describe, expect, test } from 'vitest';
import { checkedEdit, deleteMember, setMember } from '../../src/clients/json-edit.js';
import { unifiedDiff } from '../../src/clients/diff.js';

const text = `{
    "servers": {
        "a": { "command": "a", "args": ["x", "y"] },
        "b": { "command": "b" }
    },
    "other": [1, 2, {"k": "v"}]
}
`;

describe('json-edit', () => {
  test('adds a member after the last one at the same indentation, leaving other lines as they were', () => {
    const edited = setMember(text, ['servers'], 'hub', { command: 'node' }, '    ')!;
    expect(JSON.parse(edited)).toEqual({
      servers: { a: { command: 'a', args: ['x', 'y'] }, b: { command: 'b' }, hub: { command: 'node' } },
      other: [1, 2, { k: 'v' }],
    });
    expect(edited).toContain('        "a": { "command": "a", "args": ["x", "y"] },\n');
    expect(edited).toContain('        "hub": {\n            "command": "node"\n        }\n    },');
  });

  test('replaces an existing member in place', () => {
    const edited = setMember(text, ['servers'], 'a', { command: 'z' }, '    ')!;
    expect((JSON.parse(edited) as { servers: Record<string, unknown> }).servers).toEqual({
      a: { command: 'z' },
      b: { command: 'b' },
    });
    expect(edited).toContain('"other": [1, 2, {"k": "v"}]');
  });

  test('creates the servers object when it is missing, and fills an empty one', () => {
    expect(JSON.parse(setMember('{\n  "theme": "x"\n}\n', ['mcpServers'], 'hub', { command: 'n' }, '  ')!)).toEqual({
      theme: 'x',
      mcpServers: { hub: { command: 'n' } },
    });
    expect(JSON.parse(setMember('{ "mcpServers": {} }', ['mcpServers'], 'hub', 1, '  ')!)).toEqual({
      mcpServers: { hub: 1 },
    });
    expect(
      JSON.parse(setMember('{ "projects": { "/p": {} } }', ['projects', '/p', 'mcpServers'], 'x', 1, '  ')!),
    ).toEqual({ projects: { '/p': { mcpServers: { x: 1 } } } });
  });

  test('deletes first, middle, last and only members with their commas', () => {
    const three = '{"s": {\n  "a": 1,\n  "b": "},{\\"",\n  "c": [3]\n}}';
    for (const key of ['a', 'b', 'c']) {
      const expected = { s: { a: 1, b: '},{"', c: [3] } as Record<string, unknown> };
      delete expected.s[key];
      expect(JSON.parse(deleteMember(three, ['s'], key)!)).toEqual(expected);
    }
    expect(JSON.parse(deleteMember('{"s": {"only": true}}', ['s'], 'only')!)).toEqual({ s: {} });
    expect(deleteMember(three, ['s'], 'missing')).toBeUndefined();
  });

  test('JSONC: a member replaced or added beside comments and trailing commas keeps them', () => {
    const jsonc = '{\n  "s": {\n    // a\n    "a": 1, // one\n    "b": /* two */ 2,\n  },\n}\n';
    expect(setMember(jsonc, ['s'], 'b', 3, '  ')).toBe(jsonc.replace('/* two */ 2', '/* two */ 3'));
    expect(setMember(jsonc, ['s'], 'c', true, '  ')).toBe(jsonc.replace('2,\n', '2,\n    "c": true,\n'));
    expect(setMember('{ "s": { /* none yet */ } }', ['s'], 'x', 1, '  ')).toBe(
      '{ "s": {\n  /* none yet */\n  "x": 1\n} }',
    );
    expect(deleteMember(jsonc, ['s'], 'a')).toBe('{\n  "s": {\n    "b": /* two */ 2,\n  },\n}\n');
  });

  test('checkedEdit refuses an edit that does not parse to the expected data', () => {
    expect(checkedEdit('{"a": 1}', { a: 1 })).toBe('{"a": 1}');
    expect(checkedEdit('{"a": 2}', { a: 1 })).toBeUndefined();
    expect(checkedEdit('{"a": ', { a: 1 })).toBeUndefined();
  });
});

describe('unifiedDiff', () => {
  test('shows one hunk with context and correct line numbers', () => {
    const before = ['1', '2', '3', '4', '5', '6', '7', '8'].join('\n') + '\n';
    const after = ['1', '2', '3', '4', 'new', '5', '6', '7', '8'].join('\n') + '\n';
    expect(unifiedDiff(before, after, 'a', 'b')).toBe('--- a\n+++ b\n@@ -2,6 +2,7 @@\n 2\n 3\n 4\n+new\n 5\n 6\n 7\n');
  });

  test('is empty for equal texts and diffs a new file against nothing', () => {
    expect(unifiedDiff('x\n', 'x\n', 'a', 'b')).toBe('');
    expect(unifiedDiff('', 'x\ny\n', '/dev/null', 'b')).toBe('--- /dev/null\n+++ b\n@@ -0,0 +1,2 @@\n+x\n+y\n');
  });
});
