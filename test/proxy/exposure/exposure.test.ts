// Issue 14, items 1 and 4: the exposure decision (proxy/exposure/plan.ts, known-clients.ts) and the
// project file (project-file.ts), on the real tool lists of 15 published servers.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, onTestFinished, test } from 'vitest';
import { clientProfile, DEFAULT_BUDGET, knownClientRows } from '../../../src/proxy/exposure/known-clients.js';
import { listsEveryTool, pinMatcher, planExposure, selectExposed } from '../../../src/proxy/exposure/plan.js';
import { resolveProject } from '../../../src/proxy/exposure/project-file.js';
import { findProjectFile } from '../../../src/proxy/exposure/project-lookup.js';
import { buildRoutes, type Route } from '../../../src/proxy/listing/routes.js';
import { toolListRecords } from '../../helpers/tool-lists.js';

const table = buildRoutes(toolListRecords());
const OWN = 10;
const none = { uses: () => 0, pinned: () => false, ownCount: OWN };

describe('the exposure plan', () => {
  test.each([
    ['claude-code', 'all', Infinity, true],
    ['codex-mcp-client', 'all', Infinity, false],
    ['gemini-cli-mcp-client', 'capped', 100, true],
    ['cursor', 'capped', 40, false],
    ['cursor-vscode', 'capped', 40, false],
    ['Visual Studio Code', 'capped', 128, true],
    ['Visual Studio Code - Insiders', 'capped', 128, true],
    ['windsurf-client', 'capped', 100, false],
    ['claude-ai', 'capped', DEFAULT_BUDGET, false],
    ['ai-sdk-mcp-client', 'capped', DEFAULT_BUDGET, false],
    ['langchain-js-mcp-adapters', 'capped', DEFAULT_BUDGET, false],
    ['mcp-use', 'capped', DEFAULT_BUDGET, false],
    ['inspector-cli', 'all', Infinity, false],
    ['mcp-inspector', 'all', Infinity, false],
    ['my-own-agent', 'capped', DEFAULT_BUDGET, false],
    [undefined, 'capped', DEFAULT_BUDGET, false],
  ])('auto for %s: %s, budget %s, re-lists %s', (name, kind, budget, relists) => {
    expect(planExposure('auto', name)).toMatchObject({ kind, budget, relists });
    // Whether a client lists again is the client's, whatever the mode.
    expect(planExposure('search', name).relists).toBe(relists);
  });

  test('all and search do not look at the client', () => {
    expect(planExposure('all', 'cursor-vscode').kind).toBe('all');
    expect(planExposure('search', 'claude-code').kind).toBe('search');
  });

  test('a client name is matched on its first 100 characters only', () => {
    expect(clientProfile(`${'x'.repeat(100)}cursor`).known).toBe(false);
  });

  test("docs/exposure.md's table of known clients is this table", async () => {
    const doc = await readFile(new URL('../../../docs/exposure.md', import.meta.url), 'utf8');
    const lines = doc.split('\n');
    for (const row of knownClientRows()) {
      const cells = [row.label, `\`${row.names.replaceAll('|', '\\|')}\``, row.auto, row.relists];
      const line = lines.find(text => text.startsWith(`| ${row.label} `));
      expect(
        line
          ?.split(/(?<!\\)\|/)
          .map(cell => cell.trim())
          .slice(1, 5),
        row.label,
      ).toEqual(cells);
    }
  });
});

describe('the selection', () => {
  const routes = table.routes;

  test('capped: filled tool by tool to the budget with hub and tools.search counted, no place left empty', () => {
    for (const budget of [20, 40, 100, 128]) {
      const plan = { kind: 'capped', budget, relists: false, why: '' } as const;
      const { listed, hidden, search } = selectExposed(routes, plan, none);
      // Before: whole servers in install order while they fit, leaving places empty (40: 8 of 29).
      expect(OWN + listed.length + (search ? 1 : 0)).toBe(budget);
      expect(hidden).toBe(routes.length - listed.length);
      expect(search).toBe(true);
    }
  });

  test("capped: the session's called and found tools, then the server it installed, then the most used; an install drops none of them", () => {
    const plan = { kind: 'capped', budget: 40, relists: true, why: '' } as const;
    const route = (dotted: string) => routes.find(candidate => candidate.dotted === dotted)!;
    const called = ['memory.read_graph', 'memory.add_observations', 'slack.slack_post_message'].map(route);
    const found = [route('everything.get-sum')];
    const uses = (candidate: Route) => (candidate.tool === 'browser_click' ? 7 : 0);
    const options = { ...none, uses, kept: [...called, ...found], installed: ['github'] };
    const { listed } = selectExposed(routes, plan, options);
    const names = listed.map(candidate => candidate.dotted);
    expect(names).toEqual(expect.arrayContaining([...called, ...found].map(candidate => candidate.dotted)));
    // github's 26 tools, then the most used: 4 + 26 + 1 = 31 of the 29 places: github fills the rest.
    expect(names.filter(name => name.startsWith('github.'))).toHaveLength(40 - OWN - 1 - 4);
    expect(names).not.toContain('playwright.browser_click');
    // A new server with more tools than the budget changes none of the session's own.
    const bigger = buildRoutes([
      ...toolListRecords(),
      {
        ...toolListRecords()[0]!,
        name: 'ev2',
        order: 99,
        tools: Array.from({ length: 50 }, (_, index) => ({ name: `t${index}`, inputSchema: { type: 'object' } })),
      },
    ]).routes;
    const again = selectExposed(bigger, plan, {
      ...options,
      kept: options.kept.map(old => bigger.find(candidate => candidate.dotted === old.dotted)!),
      installed: ['ev2', 'github'],
    });
    const after = again.listed.map(candidate => candidate.dotted);
    expect(after).toEqual(expect.arrayContaining([...called, ...found].map(candidate => candidate.dotted)));
    expect(after.filter(name => name.startsWith('ev2.'))).toHaveLength(40 - OWN - 1 - 4);
    expect(OWN + 1 + again.listed.length).toBe(40);
  });

  test('capped: the most used tools first, then pinned tools even past the budget', () => {
    const plan = { kind: 'capped', budget: 15, relists: false, why: '' } as const;
    const uses = (route: Route) => (route.tool === 'create_issue' ? 50 : route.tool === 'browser_click' ? 7 : 0);
    const used = selectExposed(routes, plan, { ...none, uses });
    expect(used.listed.map(route => route.dotted)).toEqual(
      expect.arrayContaining(['github.create_issue', 'gitlab.create_issue', 'playwright.browser_click']),
    );
    const pinned = pinMatcher(['slack', 'memory_read_graph', 'github.fork_repository']);
    const withPins = selectExposed(
      routes,
      { kind: 'capped', budget: 12, relists: false, why: '' },
      { ...none, pinned },
    );
    expect(withPins.listed.map(route => route.dotted).sort()).toEqual(
      [
        ...routes.filter(route => route.server === 'slack').map(route => route.dotted),
        'memory.read_graph',
        'github.fork_repository',
      ].sort(),
    );
  });

  test('capped under the budget and all list everything without tools.search; search lists only pins', () => {
    const few = routes.slice(0, 20);
    expect(selectExposed(few, { kind: 'capped', budget: 40, relists: false, why: '' }, none)).toMatchObject({
      hidden: 0,
      search: false,
    });
    expect(selectExposed(routes, planExposure('all', undefined), none).listed).toHaveLength(routes.length);
    const search = selectExposed(routes, planExposure('search', undefined), {
      ...none,
      pinned: pinMatcher(['postgres']),
    });
    expect(search.listed.map(route => route.dotted)).toEqual(['postgres.query']);
    expect(search.hidden).toBe(routes.length - 1);
    // Search lists the session's own found tools too, never the servers it installed.
    const kept = selectExposed(routes, planExposure('search', undefined), {
      ...none,
      kept: routes.filter(route => route.dotted === 'memory.read_graph'),
      installed: ['github'],
    });
    expect(kept.listed.map(route => route.dotted)).toEqual(['memory.read_graph']);
  });

  test('the cold-start lane answers only when every tool would be listed', () => {
    expect(listsEveryTool('auto', 'claude-code', OWN, 500)).toBe(true);
    expect(listsEveryTool('auto', 'cursor-vscode', OWN, 30)).toBe(true);
    expect(listsEveryTool('auto', 'cursor-vscode', OWN, 31)).toBe(false);
    expect(listsEveryTool('search', 'claude-code', OWN, 1)).toBe(false);
    expect(listsEveryTool('search', 'claude-code', OWN, 0)).toBe(true);
  });
});

describe('the project file', () => {
  const folder = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hub-project-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    return dir;
  };

  test('found in the start folder or above it, up to a git root', async () => {
    const root = await folder();
    await writeFile(join(root, '.hub.json'), JSON.stringify({ servers: ['github'], exposure: 'search' }));
    await mkdir(join(root, 'app', 'src'), { recursive: true });
    expect(findProjectFile([join(root, 'app', 'src')])).toBe(join(root, '.hub.json'));
    expect(resolveProject([join(root, 'app', 'src')])).toMatchObject({ kind: 'project', exposure: 'search' });
    // A git root between the start and the file ends the walk: that project has no file.
    await writeFile(join(root, 'app', '.git'), '');
    expect(findProjectFile([join(root, 'app', 'src')])).toBeUndefined();
    expect(resolveProject([join(root, 'app', 'src')])).toEqual({ kind: 'none' });
    // The first start folder with a file wins.
    expect(findProjectFile([join(root, 'app'), root])).toBe(join(root, '.hub.json'));
  });

  test.each([
    [{ servers: 'github' }, /field "servers": Invalid input: expected array/],
    [
      { servers: ['github'], exposure: 'some' },
      /field "exposure": Invalid option: expected one of "all"\|"search"\|"auto"/,
    ],
    [{ servers: ['github'], server: ['x'] }, /Unrecognized key: "server"/],
    [{}, /field "servers"/],
    ['not json', /not valid JSON/],
  ])('an invalid file %j is reported with the field and an example', async (content, message) => {
    const root = await folder();
    await writeFile(join(root, '.hub.json'), typeof content === 'string' ? content : JSON.stringify(content));
    const project = resolveProject([root]);
    expect(project.kind).toBe('invalid');
    expect(project.kind === 'invalid' && project.error).toMatch(message);
    expect(project.kind === 'invalid' && project.error).toContain(join(root, '.hub.json'));
  });
});
