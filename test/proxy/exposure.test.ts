// Issue 14, items 1 and 4: the exposure decision (proxy/exposure.ts, known-clients.ts) and the
// project file (project-file.ts), on the real tool lists of 15 published servers.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, onTestFinished, test } from 'vitest';
import { clientProfile, DEFAULT_BUDGET, knownClientRows } from '../../src/proxy/known-clients.js';
import { listsEveryTool, pinMatcher, planExposure, selectExposed } from '../../src/proxy/exposure.js';
import { resolveProject } from '../../src/proxy/project-file.js';
import { findProjectFile } from '../../src/proxy/project-lookup.js';
import { buildRoutes, type Route } from '../../src/proxy/routes.js';
import { toolListRecords } from '../helpers/tool-lists.js';

const table = buildRoutes(toolListRecords());
const OWN = 10;
const none = { uses: () => 0, pinned: () => false, ownCount: OWN };

describe('the exposure plan', () => {
  test.each([
    ['claude-code', 'all', Infinity],
    ['codex-mcp-client', 'all', Infinity],
    ['cursor-vscode', 'capped', 40],
    ['Visual Studio Code', 'capped', 128],
    ['Visual Studio Code - Insiders', 'capped', 128],
    ['windsurf-client', 'capped', 100],
    ['ai-sdk-mcp-client', 'capped', DEFAULT_BUDGET],
    ['my-own-agent', 'capped', DEFAULT_BUDGET],
    [undefined, 'capped', DEFAULT_BUDGET],
  ])('auto for %s: %s, budget %s', (name, kind, budget) => {
    expect(planExposure('auto', name)).toMatchObject({ kind, budget });
  });

  test('all and search do not look at the client', () => {
    expect(planExposure('all', 'cursor-vscode').kind).toBe('all');
    expect(planExposure('search', 'claude-code').kind).toBe('search');
  });

  test('a client name is matched on its first 100 characters only', () => {
    expect(clientProfile(`${'x'.repeat(100)}cursor`).known).toBe(false);
  });

  test("the README's table of known clients is this table", async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const lines = readme.slice(readme.indexOf('## Many servers, few tools')).split('\n');
    for (const row of knownClientRows()) {
      const cells = [row.label, `\`${row.names.replaceAll('|', '\\|')}\``, row.auto];
      const line = lines.find(text => text.startsWith(`| ${row.label} `));
      expect(
        line
          ?.split(/(?<!\\)\|/)
          .map(cell => cell.trim())
          .slice(1, 4),
        row.label,
      ).toEqual(cells);
    }
  });
});

describe('the selection', () => {
  const routes = table.routes;

  test('capped: never more than the budget with hub and tools.search counted, whole servers in install order', () => {
    for (const budget of [20, 40, 100, 128]) {
      const plan = { kind: 'capped', budget, why: '' } as const;
      const { listed, hidden, search } = selectExposed(routes, plan, none);
      expect(OWN + listed.length + (search ? 1 : 0)).toBeLessThanOrEqual(budget);
      expect(hidden).toBe(routes.length - listed.length);
      expect(search).toBe(true);
      // Whole servers only when nothing was used.
      for (const server of new Set(listed.map(route => route.server)))
        expect(listed.filter(route => route.server === server)).toHaveLength(
          routes.filter(route => route.server === server).length,
        );
    }
  });

  test('capped: the most used tools first, then pinned tools even past the budget', () => {
    const plan = { kind: 'capped', budget: 15, why: '' } as const;
    const uses = (route: Route) => (route.tool === 'create_issue' ? 50 : route.tool === 'browser_click' ? 7 : 0);
    const used = selectExposed(routes, plan, { ...none, uses });
    expect(used.listed.map(route => route.dotted)).toEqual(
      expect.arrayContaining(['github.create_issue', 'gitlab.create_issue', 'playwright.browser_click']),
    );
    const pinned = pinMatcher(['slack', 'memory_read_graph', 'github.fork_repository']);
    const withPins = selectExposed(routes, { kind: 'capped', budget: 12, why: '' }, { ...none, pinned });
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
    expect(selectExposed(few, { kind: 'capped', budget: 40, why: '' }, none)).toMatchObject({
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
