// The npm step as a client sees it, with the stand-in npm (test/fixtures/install-fake-npm):
// a few progress steps instead of npm's lines, npm's warnings in the result, and installs that
// outlast install.foregroundMs going on in the background. No network.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test, vi } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, textOf } from '../../helpers/hub.js';
import { fakeNpm } from '../../helpers/install.js';

const engineWarning = [
  'npm warn Unknown user config "nodedir". This will stop working in the next major version of npm.',
  'npm warn EBADENGINE Unsupported engine {',
  "npm warn EBADENGINE   package: 'chatty-server@1.2.3',",
  "npm warn EBADENGINE   required: { node: '>=99' },",
  "npm warn EBADENGINE   current: { node: 'v20.20.2', npm: '11.19.1' }",
  'npm warn EBADENGINE }',
  'npm warn ERESOLVE overriding peer dependency',
  'npm notice New major version of npm available! 11.19.1 -> 12.0.0',
].join('\n');

describe('npm step', () => {
  test("360 npm lines become a few steps; npm's warnings are in the result", async () => {
    const home = await makeHubHome();
    const npm = fakeNpm(home, { FAKE_NPM_LINES: '360', FAKE_NPM_WARN: engineWarning });
    const hub = await spawnHub(home, { env: npm.env });
    try {
      const messages: string[] = [];
      const result = (await hub.client.callTool(
        { name: 'registry.install', arguments: { package: 'chatty-server', start: false } },
        undefined,
        {
          onprogress: progress => messages.push(progress.message ?? ''),
        },
      )) as CallToolResult;
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(messages.length).toBeLessThan(40);
      expect(messages[0]).toBe('npm: resolving chatty-server');
      expect(messages.some(message => /^npm: fetching packages \(\d+ so far\)/.test(message))).toBe(true);
      expect(messages).toContain('installed chatty-server@1.2.3');
      expect(messages.filter(message => /npm (http|notice|warn)/.test(message))).toEqual([]);
      expect((result.structuredContent as { warnings?: string[] }).warnings).toEqual([
        "EBADENGINE Unsupported engine { package: 'chatty-server@1.2.3', required: { node: '>=99' }, current: { node: 'v20.20.2', npm: '11.19.1' } }",
        'ERESOLVE overriding peer dependency',
      ]);
      expect(textOf(result)).toContain('npm warning: EBADENGINE Unsupported engine');
    } finally {
      await hub.close();
    }
  });

  test('an install longer than install.foregroundMs answers early and finishes in the background', async () => {
    const home = await makeHubHome();
    await writeFile(join(home, 'config.json'), JSON.stringify({ install: { foregroundMs: 500 } }));
    const npm = fakeNpm(home, { FAKE_NPM_SLOW_MS: '4000' });
    const hub = await spawnHub(home, { env: { ...npm.env, HUB_TOOL_NAMES: 'dotted' } });
    try {
      let changes = 0;
      hub.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (changes += 1));
      const result = await hub.call('registry.install', { package: 'slow-server' });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(result.structuredContent).toMatchObject({
        name: 'slow',
        state: 'installing',
        background: true,
        tools: [],
      });
      const next = (result.structuredContent as { next: string }).next;
      expect(next).toContain('goes on in the background');
      expect(next).toContain('registry.list { server: "slow" }');
      expect(next).toContain('tools/list_changed');

      const during = await hub.call('registry.list', { server: 'slow' });
      expect(during.isError, textOf(during)).toBeFalsy();
      expect(textOf(during)).toMatch(/^slow \(slow-server\) is still installing: npm: resolving slow-server/);
      expect(textOf(await hub.call('registry.list'))).toContain(
        'slow  slow-server  installing: npm: resolving slow-server',
      );

      await vi.waitFor(() => expect(changes).toBeGreaterThan(0), { timeout: 30_000, interval: 100 });
      await vi.waitFor(
        async () => expect((await hub.client.listTools()).tools.map(tool => tool.name)).toContain('slow.echo'),
        { timeout: 30_000, interval: 200 },
      );
      expect(textOf(await hub.call('slow.echo', { message: 'later' }))).toContain('later');
      const after = await hub.call('registry.list', { server: 'slow' });
      expect(textOf(after)).toMatch(/^slow \(ready[,)]/);
    } finally {
      await hub.close();
    }
    expect(await npm.runs()).toHaveLength(1);
  }, 60_000);

  test("a background install that fails is shown by registry.list with npm's words, and leaves no record", async () => {
    const home = await makeHubHome();
    await writeFile(join(home, 'config.json'), JSON.stringify({ install: { foregroundMs: 300 } }));
    const npm = fakeNpm(home, { FAKE_NPM_SLOW_MS: '1500' });
    const hub = await spawnHub(home, { env: npm.env });
    try {
      const result = await hub.call('registry.install', { package: 'fail-server' });
      expect(result.structuredContent).toMatchObject({ name: 'fail', state: 'installing', background: true });
      await vi.waitFor(
        async () =>
          expect(textOf(await hub.call('registry.list', { server: 'fail' }))).toMatch(
            /^The install of fail \(fail-server\) failed: npm install of "fail-server" failed: npm exited with code 1; nothing was installed\. npm said:\nnpm error code E404/,
          ),
        {
          timeout: 30_000,
          interval: 200,
        },
      );
      expect((await hub.call('registry.list')).structuredContent).toMatchObject({ servers: [] });
    } finally {
      await hub.close();
    }
    expect(existsSync(join(home, 'servers', 'fail'))).toBe(false);
  }, 60_000);

  test('an upgrade longer than install.foregroundMs answers early; the old version serves until the new one is ready', async () => {
    const home = await makeHubHome();
    await writeFile(join(home, 'config.json'), JSON.stringify({ install: { foregroundMs: 500 } }));
    const npm = fakeNpm(home, { FAKE_NPM_SLOW_MS: '2500' });
    const hub = await spawnHub(home, { env: { ...npm.env, HUB_TOOL_NAMES: 'dotted' } });
    try {
      await hub.call('registry.install', { package: 'slow-server@1.0.0' });
      await vi.waitFor(
        async () => expect(textOf(await hub.call('registry.list', { server: 'slow' }))).toMatch(/^slow \(ready[,)]/),
        {
          timeout: 30_000,
          interval: 200,
        },
      );
      const result = await hub.call('registry.install', { package: 'slow-server@2.0.0', upgrade: true });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(result.structuredContent).toMatchObject({
        name: 'slow',
        version: '1.0.0',
        state: 'installing',
        background: true,
      });
      expect((result.structuredContent as { next: string }).next).toContain('1.0.0 keeps serving');
      // Meanwhile the installed version answers, and registry.list says what is at work.
      expect(textOf(await hub.call('slow.echo', { message: 'still here' }))).toContain('still here');
      expect(textOf(await hub.call('registry.list', { server: 'slow' }))).toContain(
        'An upgrade or build of slow is still at work: npm: ',
      );
      // The new version is ready and the step file is gone (it goes once the work has returned).
      await vi.waitFor(
        async () => {
          const after = await hub.call('registry.list', { server: 'slow' });
          expect(after.structuredContent).toMatchObject({ servers: [{ version: '2.0.0', state: 'ready' }] });
          expect(textOf(after)).not.toContain('still at work');
        },
        { timeout: 30_000, interval: 200 },
      );
    } finally {
      await hub.close();
    }
  }, 60_000);

  test('building newly allowed scripts of an installed server answers early and runs npm rebuild in its install folder', async () => {
    const home = await makeHubHome();
    await writeFile(join(home, 'config.json'), JSON.stringify({ install: { foregroundMs: 500 } }));
    const npm = fakeNpm(home, { FAKE_NPM_SLOW_MS: '2500' });
    const hub = await spawnHub(home, { env: { ...npm.env, HUB_TOOL_NAMES: 'dotted' } });
    try {
      await hub.call('registry.install', { package: 'native-server', allowScripts: ['native-dep'], start: false });
      await vi.waitFor(
        () => expect(existsSync(join(home, 'servers', 'native', 'node_modules', 'native-server'))).toBe(true),
        {
          timeout: 30_000,
          interval: 200,
        },
      );
      await vi.waitFor(async () => expect(textOf(await hub.call('registry.list'))).not.toContain('installing:'), {
        timeout: 30_000,
        interval: 200,
      });
      // A dependency with an install script, as a native module has.
      const dep = join(home, 'servers', 'native', 'node_modules', 'native-dep');
      await mkdir(dep, { recursive: true });
      await writeFile(
        join(dep, 'package.json'),
        JSON.stringify({ name: 'native-dep', version: '1.0.0', scripts: { install: 'node build.js' } }),
      );

      const result = await hub.call('registry.install', { package: 'native-server', allowScripts: ['native-dep'] });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ name: 'native', state: 'installing', background: true });
      expect((result.structuredContent as { step: string }).step).toBe('npm: running install scripts of native-dep');
      await vi.waitFor(
        async () =>
          expect((await hub.call('registry.list', { server: 'native' })).structuredContent).toMatchObject({
            servers: [{ state: 'ready' }],
          }),
        { timeout: 30_000, interval: 200 },
      );
      // npm rebuild ran in the install folder (not the data folder the server runs in).
      expect(await readFile(join(home, 'servers', 'native', 'rebuilt-by-fake-npm'), 'utf8')).toContain('native-dep');
    } finally {
      await hub.close();
    }
  }, 60_000);

  test('install.npmTimeoutMs bounds one npm run, and the error says how to give a slow build more time', async () => {
    const home = await makeHubHome();
    await writeFile(join(home, 'config.json'), JSON.stringify({ install: { npmTimeoutMs: 1500 } }));
    const npm = fakeNpm(home, { FAKE_NPM_SLOW_MS: '20000' });
    const hub = await spawnHub(home, { env: npm.env });
    try {
      const result = await hub.call('registry_install', { package: 'slow-server' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /did not finish within 2 s \(a slow build may need more: raise install\.npmTimeoutMs in config\.json\)/,
      );
      expect((await hub.call('registry_list')).structuredContent).toMatchObject({ servers: [] });
    } finally {
      await hub.close();
    }
  }, 60_000);
});
