// What a child writes for a person, cleaned before hub's label goes in front of it (issue 26 item 10).
import { describe, expect, test } from 'vitest';
import { forPerson, oneLine } from '../../../src/proxy/child/person-text.js';

describe('forPerson', () => {
  test.each([
    ['leading blank lines and spaces', '\n\n \t\n\r\n  Approve?', 'Approve?'],
    ['colours and cursor moves', '\u001b[2K\u001b[1A\u001b[31mred\u001b[0m', 'red'],
    ['a window title (OSC, BEL-ended)', 'a\u001b]0;hub\u0007b', 'ab'],
    ['8-bit CSI and C1 controls', 'a\u009b2Jb\u0085c\u0090x\u009cd', 'ab\ncd'],
    ['bidi overrides and isolates', '\u202Eevil\u202C \u2066x\u2069 \u200Fy', 'evil x y'],
    ['lone controls (NUL, BEL, BS, DEL, ESC)', 'a\u0000b\u0007c\bd\u007fe\u001b', 'abcde'],
    ['a carriage return is a line break, not an overwrite', 'hub asks\rserver asks', 'hub asks\nserver asks'],
    ['runs of blank lines become one', 'a\n\n\n\n\u2028\nb\n\n', 'a\n\nb'],
    ['tabs and ordinary Unicode stay', 'a\tb — ü 日本', 'a\tb — ü 日本'],
  ])('%s', (_why, text, clean) => {
    expect(forPerson(text)).toBe(clean);
  });

  test('long hostile input is cleaned whole (no escape or control left, no blank lines first)', () => {
    const text = `${'\n'.repeat(10_000)}${'\u001b['.repeat(50_000)}${'\u001b]'.repeat(50_000)}end`;
    const clean = forPerson(text);
    // eslint-disable-next-line no-control-regex
    expect(clean).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/);
    expect(clean.endsWith('end')).toBe(true);
    expect(clean.startsWith('\n')).toBe(false);
  });
});

test('oneLine keeps a title on one line', () => {
  expect(oneLine('\n\u001b[31mhub:\nApprove\u001b[0m\n')).toBe('hub: Approve');
});
