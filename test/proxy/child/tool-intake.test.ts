// takeTools as a pure function: each entry on its own, limits in the child's order, issues reported.
import { describe, expect, test } from 'vitest';
import { TOOL_LIMITS, sameTools, takeTools } from '../../../src/proxy/child/tool-intake.js';

const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  inputSchema: { type: 'object' },
  ...extra,
});

describe('takeTools', () => {
  test('count and byte limits keep the first tools and report the rest in one line', () => {
    const limits = { ...TOOL_LIMITS, maxTools: 3 };
    const { tools, issues } = takeTools(
      ['a', 'b', 'c', 'd', 'e'].map(name => tool(name)),
      limits,
    );
    expect(tools.map(t => t.name)).toEqual(['a', 'b', 'c']);
    expect(issues).toEqual([{ tool: 'd … e', action: 'skipped', reason: expect.stringContaining('2 tools over') }]);
    const bytes = takeTools([tool('a'), tool('b', { description: 'x'.repeat(500) }), tool('c')], {
      ...TOOL_LIMITS,
      serverBytes: 300,
    });
    expect(bytes.tools.map(t => t.name)).toEqual(['a', 'c']);
  });

  test('a name listed twice keeps the first; properties that are not objects skip the tool only', () => {
    const { tools, issues } = takeTools([
      tool('a', { description: 'first' }),
      tool('a', { description: 'second' }),
      { name: 'bad_properties', inputSchema: { type: 'object', properties: [1, 2] } },
      tool('z'),
    ]);
    expect(tools.map(t => [t.name, t.description])).toEqual([
      ['a', 'first'],
      ['z', undefined],
    ]);
    expect(issues.map(issue => issue.tool)).toEqual(['a', 'bad_properties']);
  });

  test('an outputSchema over its cap is left out and the tool kept; an inputSchema over its cap skips the tool', () => {
    const big = (bytes: number) => ({
      type: 'object',
      properties: { x: { type: 'string', description: 'd'.repeat(bytes) } },
    });
    const limits = { ...TOOL_LIMITS, inputSchemaBytes: 1_000, outputSchemaBytes: 2_000 };
    const { tools, issues } = takeTools(
      [
        tool('fits', { inputSchema: big(900), outputSchema: big(1_900) }),
        tool('big_output', { outputSchema: big(2_100), description: 'e'.repeat(9_000) }),
        tool('big_input', { inputSchema: big(1_100) }),
      ],
      limits,
    );
    expect(tools.map(t => [t.name, t.outputSchema === undefined])).toEqual([
      ['fits', false],
      ['big_output', true],
    ]);
    expect(issues).toEqual([
      {
        tool: 'big_output',
        action: 'trimmed',
        reason: expect.stringMatching(/^outputSchema left out: it is 21\d\d bytes, over hub's limit of 2000 bytes/),
      },
      { tool: 'big_output', action: 'trimmed', reason: expect.stringMatching(/^description cut to 8192 bytes/) },
      {
        tool: 'big_input',
        action: 'skipped',
        reason: expect.stringMatching(/^its inputSchema is 11\d\d bytes, over hub's limit of 1000 bytes per tool$/),
      },
    ]);
  });

  test("past the server's bytes, a tool is kept without its outputSchema when that makes it fit", () => {
    const output = { type: 'object', properties: { x: { type: 'string', description: 'o'.repeat(400) } } };
    const { tools, issues } = takeTools([tool('a', { outputSchema: output }), tool('b', { outputSchema: output })], {
      ...TOOL_LIMITS,
      serverBytes: 700,
    });
    expect(tools.map(t => [t.name, t.outputSchema === undefined])).toEqual([
      ['a', false],
      ['b', true],
    ]);
    expect(issues).toEqual([
      {
        tool: 'b',
        action: 'trimmed',
        reason: expect.stringMatching(/^outputSchema left out: the server's tools are over/),
      },
    ]);
  });

  test('lists compare canonically: key order is not a change', () => {
    const one = [
      { name: 'a', description: 'd', inputSchema: { type: 'object' as const, properties: { x: { type: 'string' } } } },
    ];
    const two = [
      { inputSchema: { properties: { x: { type: 'string' } }, type: 'object' as const }, description: 'd', name: 'a' },
    ];
    expect(sameTools(one, two)).toBe(true);
    expect(sameTools(one, [{ ...one[0]!, description: 'e' }])).toBe(false);
  });
});
