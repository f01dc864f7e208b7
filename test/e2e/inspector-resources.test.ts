// The official MCP Inspector in CLI mode against the built hub: hub's own resources listed and
// read (`--method resources/list`, `resources/templates/list`, `resources/read --uri hub://processes`).
// Skipped like inspector.test.ts while the inspector devDependency is not installed.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { makeHubHome } from '../helpers/home.js';
import { SERVER_JS } from '../helpers/hub.js';

function inspectorBin(): string | undefined {
  if (process.env.HUB_INSPECTOR_BIN) return process.env.HUB_INSPECTOR_BIN;
  try {
    const manifest = createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json');
    const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: string | Record<string, string> };
    const relative = typeof bin === 'string' ? bin : (bin['mcp-inspector'] ?? Object.values(bin)[0]);
    return relative === undefined ? undefined : join(dirname(manifest), relative);
  } catch {
    return undefined;
  }
}

const bin = inspectorBin();

async function inspect(home: string, args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [bin!, '--cli', process.execPath, SERVER_JS, '-e', `HUB_HOME=${home}`, ...args],
    { env: { ...process.env, HUB_HOME: home }, timeout: 60_000 },
  );
  return JSON.parse(stdout) as Record<string, unknown>;
}

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
