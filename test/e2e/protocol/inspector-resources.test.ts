// The official MCP Inspector in CLI mode against the built hub: hub's own resources listed and
// read (`--method resources/list`, `resources/templates/list`, `resources/read --uri hub://processes`).
// Skipped like inspector.test.ts while the inspector devDependency is not installed.
import { describe, expect, test } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { INSPECTOR_BIN, inspect } from '../../helpers/inspector.js';

const bin = INSPECTOR_BIN;

(bin === undefined ? describe.skip : describe)("MCP Inspector CLI: hub's own resources", () => {
  test('resources/list and resources/templates/list name hub://processes, hub://servers and the log template', async () => {
    const home = await makeHubHome();
    const { resources } = (await inspect(home, ['--method', 'resources/list'])) as { resources: { uri: string }[] };
    expect(resources.map(resource => resource.uri)).toEqual(
      expect.arrayContaining(['hub://processes', 'hub://servers']),
    );
    const { resourceTemplates } = (await inspect(home, ['--method', 'resources/templates/list'])) as {
      resourceTemplates: { uriTemplate: string }[];
    };
    expect(resourceTemplates.map(template => template.uriTemplate)).toContain('hub://processes/{id}/log');
  }, 90_000);

  test('resources/read --uri hub://processes returns the process list as JSON', async () => {
    const home = await makeHubHome();
    const read = (await inspect(home, ['--method', 'resources/read', '--uri', 'hub://processes'])) as {
      contents: { uri: string; mimeType: string; text: string }[];
    };
    expect(read.contents).toHaveLength(1);
    expect(read.contents[0]).toMatchObject({ uri: 'hub://processes', mimeType: 'application/json' });
    expect(JSON.parse(read.contents[0]!.text)).toMatchObject({ processes: [], total: 0, running: 0 });
  }, 90_000);
});
