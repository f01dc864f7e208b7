// The routing table as a pure function of store data: names, budget, collisions, order, modes.
import { describe, expect, test } from 'vitest';
import { HUB_TOOL_NAMES, MAX_NAME_LENGTH, baseDottedName } from '../../../src/core/exposed-names.js';
import { LISTING_BUDGET_BYTES, buildRoutes } from '../../../src/proxy/listing/routes.js';
import type { ServerWithTools } from '../../../src/store/schema.js';

const record = (name: string, order: number, tools: string[]): ServerWithTools => ({
  name,
  command: 'node',
  args: [],
  env: {},
  mode: 'command',
  installedAt: '2026-01-01T00:00:00.000Z',
  order,
  autoStart: false,
  tools: tools.map(tool => ({ name: tool, description: `does ${tool}`, inputSchema: { type: 'object' } })),
});

const LONG = 'a_really_long_tool_name_that_goes_on_and_on_forever';

describe('routes', () => {
  test('names are <server>.<tool>, sanitized, without __; no title is made up', () => {
    const table = buildRoutes([record('memory', 1, ['read_graph', 'weird name/with:chars', '__private', 'a__b'])]);
    expect(table.lists.dotted.map(tool => tool.name)).toEqual([
      'memory.read_graph',
      'memory.weird_name_with_chars',
      'memory._private',
      'memory.a_b',
    ]);
    expect(table.lists.underscore.map(tool => tool.name)).toEqual([
      'memory_read_graph',
      'memory_weird_name_with_chars',
      'memory_private',
      'memory_a_b',
    ]);
    for (const tool of [...table.lists.dotted, ...table.lists.underscore]) {
      expect(tool.name).not.toContain('__');
      expect(tool.name).toMatch(/^[A-Za-z0-9_.-]+$/);
    }
    expect(table.lists.underscore[0]).toMatchObject({ description: '[memory] does read_graph' });
    expect(table.lists.underscore[0]?.title).toBeUndefined();
    expect(table.byName.get('memory_read_graph')?.tool).toBe('read_graph');
    expect(table.byName.get('memory.weird_name_with_chars')?.tool).toBe('weird name/with:chars');
  });

  test('long names keep the start and the end of the tool name and drop the middle, no hash', () => {
    const table = buildRoutes([record('everything', 1, [LONG, `${LONG}_2`])]);
    const [first, second] = table.routes;
    expect(first?.dotted).toBe('everything.a_reall_on_and_on_forever');
    expect(second?.dotted).toBe('everything.a_reall_on_and_on_forever_2');
    expect(baseDottedName('everything', LONG)).toBe(first?.dotted);
    // Derived only from store data: a second build (another hub, a restart) gives the same names.
    expect(buildRoutes([record('everything', 1, [LONG, `${LONG}_2`])]).routes.map(route => route.dotted)).toEqual(
      table.routes.map(route => route.dotted),
    );
    for (const route of table.routes) expect(route.underscore.length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
  });

  test('tools that differ only at the end stay apart; a hash only where cut names still collide', () => {
    const server = 'browserbase';
    const ends = buildRoutes([
      record(server, 1, [
        'multi_browserbase_stagehand_session_extract_alpha',
        'multi_browserbase_stagehand_session_extract_beta',
        'stagehand_extract_alpha',
      ]),
    ]);
    expect(ends.routes.map(route => route.dotted)).toEqual([
      'browserbase.multi_session_extract_alpha',
      'browserbase.multi_session_extract_beta',
      'browserbase.stagehand_extract_alpha',
    ]);
    // Same start, same end, different middle: the later ones get a hash where the middle was.
    const middle = (letter: string) => `alpha_one_${letter}_very_long_middle_section_and_then_common_end_value`;
    const table = buildRoutes([record('srv', 1, [middle('x'), middle('y'), middle('z')])]);
    const names = table.routes.map(route => route.dotted);
    expect(names[0]).toBe('srv.alpha_and_then_common_end_value');
    expect(names[1]).toMatch(/^srv\.alpha_[0-9a-f]{6}_then_common_end_value$/);
    expect(new Set(names).size).toBe(3);
    expect(buildRoutes([record('srv', 1, [middle('x'), middle('y'), middle('z')])]).routes.map(r => r.dotted)).toEqual(
      names,
    );
    for (const route of [...ends.routes, ...table.routes]) {
      expect(route.dotted.length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
      expect(route.underscore.length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
      expect(route.underscore).not.toContain('__');
    }
  });

  test("a child's title and annotations.title are kept; the exposed name is in name only", () => {
    const table = buildRoutes([
      {
        ...record('memory', 1, []),
        tools: [
          {
            name: 'create_entities',
            title: 'Create Entities',
            annotations: { title: 'Create Entities (annotation)' },
            inputSchema: { type: 'object' },
          },
        ],
      },
    ]);
    expect(table.lists.dotted[0]).toMatchObject({
      name: 'memory.create_entities',
      title: 'Create Entities',
      annotations: { title: 'Create Entities (annotation)' },
    });
    expect(table.lists.underscore[0]).toMatchObject({ name: 'memory_create_entities', title: 'Create Entities' });
  });

  test("a child's tool never shadows a hub tool, in either spelling", () => {
    // Server "get" with tool "free_port" would be get_free_port underscored; "start"+"process" likewise.
    const table = buildRoutes([
      record('get', 1, ['free_port']),
      record('start', 2, ['process']),
      record('x', 3, ['registry.list', 'start_process']),
    ]);
    for (const route of table.routes) {
      expect(HUB_TOOL_NAMES.has(route.dotted)).toBe(false);
      expect(HUB_TOOL_NAMES.has(route.underscore)).toBe(false);
    }
    expect(table.byName.has('get_free_port')).toBe(false);
    expect(table.byName.has('start_process')).toBe(false);
    expect(table.byServer.get('get')?.get('free_port')?.underscore).toBe('get_free_port_2');
    expect(table.byServer.get('x')?.get('registry.list')?.dotted).toBe('x.registry.list');
    expect(table.byServer.get('x')?.get('start_process')?.dotted).toBe('x.start_process');
  });

  test('collisions go to the later tool, deterministically; order is install order then server order', () => {
    const a = record('alpha', 2, ['b.c', 'b_c']);
    const z = record('zed', 1, ['one', 'two']);
    const table = buildRoutes([a, z]);
    expect(table.lists.dotted.map(tool => tool.name)).toEqual(['zed.one', 'zed.two', 'alpha.b.c', 'alpha.b_c']);
    // Underscored, both would be alpha_b_c: the second one gets a suffix.
    expect(table.lists.underscore.map(tool => tool.name)).toEqual(['zed_one', 'zed_two', 'alpha_b_c', 'alpha_b_c_2']);
    expect(new Set(table.byName.keys()).size).toBe(8);
    expect(buildRoutes([z, a]).signature).toBe(table.signature);
  });
});

describe("hub's listing budget", () => {
  test('past LISTING_BUDGET_BYTES tools stay callable but are not listed, and are counted per server', () => {
    const description = 'd'.repeat(2000);
    const big = (name: string, order: number): ServerWithTools => ({
      ...record(name, order, []),
      tools: Array.from({ length: 500 }, (_, i) => ({
        name: `tool_${i}`,
        description,
        inputSchema: { type: 'object' as const },
      })),
    });
    const table = buildRoutes(Array.from({ length: 8 }, (_, i) => big(`s${i}`, i + 1)));
    expect(JSON.stringify(table.lists.dotted).length).toBeLessThanOrEqual(LISTING_BUDGET_BYTES);
    expect(JSON.stringify(table.lists.underscore).length).toBeLessThanOrEqual(LISTING_BUDGET_BYTES);
    // Servers installed first are listed whole; the last ones are cut.
    expect(table.unlisted.get('s0')).toBeUndefined();
    expect(table.unlisted.get('s7')).toBe(500);
    expect(table.routes).toHaveLength(4000);
    expect(table.byName.get('s7.tool_3')?.tool).toBe('tool_3');
  });
});
