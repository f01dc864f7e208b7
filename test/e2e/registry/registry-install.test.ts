// registry.install through the built hub over stdio, with a fake npm first on PATH (it logs
// every run and "installs" a package whose bin is server-everything): refusals, consent, npm
// failure, missing env, progress. No network.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test, vi } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, textOf, type HubSession } from '../../helpers/hub.js';
import { childrenOf, fakeNpm } from '../../helpers/install.js';

const dbServers = async (home: string): Promise<Record<string, { version?: string; env: Record<string, string> }>> => {
  try {
    return JSON.parse(await readFile(join(home, 'db.json'), 'utf8')).servers ?? {};
  } catch {
    return {};
  }
};

async function withHub<T>(
  home: string,
  env: Record<string, string>,
  fn: (hub: HubSession) => Promise<T>,
  options: Parameters<typeof spawnHub>[1] = {},
): Promise<T> {
  const hub = await spawnHub(home, { ...options, env: { ...env, ...options.env } });
  try {
    return await fn(hub);
  } finally {
    await hub.close();
  }
}

describe('registry.install refusals', () => {
  test('refused specs spawn no process and create nothing', async () => {
    const home = await makeHubHome();
    const npm = fakeNpm(home);
    const specs = [
      'x; touch f',
      '$(id)',
      '../x',
      '--registry=http://evil',
      'https://example.com/x.tgz',
      'git+https://github.com/a/b.git',
      'file:../x',
      'a`id`',
      '/etc/passwd',
    ];
    await withHub(home, npm.env, async hub => {
      for (const spec of specs) {
        const result = await hub.call('registry.install', { package: spec });
        expect(result.isError, spec).toBe(true);
        expect(result.structuredContent).toBeUndefined();
        expect(textOf(result)).toMatch(
          /^INVALID_INPUT: Field "package" .* registry_install accepts only an npm package name/,
        );
      }
      expect(childrenOf(hub.pid ?? 0)).toEqual([]);
    });
    expect(await npm.runs()).toEqual([]);
    expect(existsSync(join(home, 'servers'))).toBe(false);
    expect(existsSync('f')).toBe(false);
    expect(await dbServers(home)).toEqual({});
  });

  test('reserved, invalid and duplicate names are refused before npm runs', async () => {
    const home = await makeHubHome();
    const npm = fakeNpm(home);
    await withHub(home, npm.env, async hub => {
      for (const name of ['hub', 'registry', 'process']) {
        expect(textOf(await hub.call('registry.install', { package: 'some-server', name }))).toMatch(
          /^INVALID_INPUT: Field "name" "\w+" is reserved/,
        );
      }
      expect(textOf(await hub.call('registry.install', { package: 'some-server', name: 'Bad_Name' }))).toMatch(
        /^INVALID_INPUT: Field "name"/,
      );
      expect(textOf(await hub.call('registry.install', {}))).toMatch(
        /^INVALID_INPUT: Give exactly one of "package" .*"command".*"url".*"official"/,
      );
      expect(textOf(await hub.call('registry.install', { package: 'a', command: 'node' }))).toMatch(/exactly one/);
      expect(textOf(await hub.call('registry.install', { command: 'no-such-program-xyz', name: 'x' }))).toMatch(
        /^INVALID_INPUT: Field "command" "no-such-program-xyz" was not found on PATH/,
      );
      expect(await npm.runs()).toEqual([]);

      const saved = await hub.call('registry.install', { package: 'some-server', start: false });
      expect(saved.isError).toBeFalsy();
      expect(saved.structuredContent).toMatchObject({
        name: 'some',
        package: 'some-server',
        version: '1.2.3',
        state: 'stopped',
      });
      const taken = await hub.call('registry.install', { package: 'other-server', name: 'some' });
      expect(textOf(taken)).toMatch(
        /^ALREADY_EXISTS: A server named "some" is already installed \(package some-server@1\.2\.3\).*registry_uninstall/,
      );
      expect(await npm.runs()).toHaveLength(1);
    });
  });

  test("a failing npm is INSTALL_FAILED with npm's error lines, and leaves no folder or record", async () => {
    const home = await makeHubHome();
    const npm = fakeNpm(home);
    await withHub(home, npm.env, async hub => {
      const result = await hub.call('registry.install', { package: 'fail-server@2' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /^INSTALL_FAILED: npm install of "fail-server@2" failed: npm exited with code 1; nothing was installed\. npm said:\nnpm error code E404/,
      );
      expect(textOf(result)).not.toContain('npm http fetch');
    });
    const [argv] = await npm.runs();
    expect(argv).toEqual([
      'install',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--omit=dev',
      '--no-progress',
      '--no-update-notifier',
      '--loglevel=http',
      '--',
      'fail-server@2',
    ]);
    expect(existsSync(join(home, 'servers', 'fail'))).toBe(false);
    expect(await dbServers(home)).toEqual({});
  });
});

describe('registry.install consent', () => {
  test('consent declined through elicitation installs nothing', async () => {
    const home = await makeHubHome();
    const npm = fakeNpm(home);
    const asked: string[] = [];
    await withHub(
      home,
      npm.env,
      async hub => {
        hub.client.setRequestHandler(ElicitRequestSchema, request => {
          asked.push(request.params.message);
          return { action: 'decline' };
        });
        const result = await hub.call('registry.install', { package: 'some-server@1.0.0' });
        // Declined at once by a test client: maybe nobody saw it, so the way out is named.
        expect(textOf(result)).toMatch(
          /^CONSENT_DECLINED: Install of "some-server@1\.0\.0" was declined; nothing was installed\. The decline came back after \d+ ms/,
        );
        expect(textOf(result)).toContain('run `hub-mcp install some-server@1.0.0` in a terminal');
        expect(childrenOf(hub.pid ?? 0)).toEqual([]);
      },
      { capabilities: { elicitation: {} } },
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('"some-server@1.0.0"');
    expect(asked[0]).toContain(`cd ${join(home, 'servers', 'some')} && npm install --ignore-scripts`);
    expect(asked[0]).toContain('-- some-server@1.0.0');
    expect(await npm.runs()).toEqual([]);
    expect(existsSync(join(home, 'servers', 'some'))).toBe(false);
    expect(await dbServers(home)).toEqual({});
  });

  test('an approved install runs npm once and records the resolved version', async () => {
    const home = await makeHubHome();
    const npm = fakeNpm(home);
    await withHub(
      home,
      npm.env,
      async hub => {
        hub.client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { approve: true } }));
        const result = await hub.call('registry.install', { package: 'some-server@4.5.6', start: false });
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toMatchObject({ name: 'some', version: '4.5.6', mode: 'npm', missingEnv: [] });
      },
      { capabilities: { elicitation: {} } },
    );
    expect(await npm.runs()).toHaveLength(1);
    expect((await dbServers(home)).some?.version).toBe('4.5.6');
  });

  test('install.confirm "always" refuses when the client cannot ask', async () => {
    const home = await makeHubHome();
    const npm = fakeNpm(home);
    await writeFile(join(home, 'config.json'), JSON.stringify({ install: { confirm: 'always' } }));
    await withHub(home, npm.env, async hub => {
      expect(textOf(await hub.call('registry.install', { package: 'some-server' }))).toMatch(
        /^CONSENT_UNAVAILABLE: .*install\.confirm is "always" but this client cannot ask you.*"confirm": "if-supported"/,
      );
    });
    expect(await npm.runs()).toEqual([]);
  });
});

describe('registry.install with the fake npm', () => {
  test('missing required env: record saved, server not started, missingEnv reported without values', async () => {
    const home = await makeHubHome();
    const npm = fakeNpm(home);
    await withHub(home, npm.env, async hub => {
      const result = await hub.call('registry.install', {
        package: '@modelcontextprotocol/server-github',
        env: { OTHER: 'secret-value-1' },
      });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({
        name: 'github',
        state: 'stopped',
        missingEnv: ['GITHUB_PERSONAL_ACCESS_TOKEN'],
        tools: [],
      });
      expect((result.structuredContent as { next: string }).next).toMatch(
        /registry_install again .*env \{ "GITHUB_PERSONAL_ACCESS_TOKEN": "…" \}.*registry_uninstall/,
      );
      expect(JSON.stringify(result)).not.toContain('secret-value-1');
      expect(childrenOf(hub.pid ?? 0)).toEqual([]);
    });
    expect((await dbServers(home)).github?.env).toEqual({ OTHER: 'secret-value-1' });
  });

  test('progress notifications arrive while npm runs, with npm lines and steps', async () => {
    const home = await makeHubHome();
    const npm = fakeNpm(home, { FAKE_NPM_SLOW_MS: '1500' });
    await withHub(home, npm.env, async hub => {
      const messages: string[] = [];
      const result = (await hub.client.callTool(
        { name: 'registry.install', arguments: { package: 'slow-server', start: false } },
        undefined,
        {
          onprogress: progress => messages.push(progress.message ?? ''),
        },
      )) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(messages[0]).toBe('npm: resolving slow-server');
      expect(messages).toContain('npm: resolving slow-server (1 metadata request)');
      expect(
        messages.some(message => /^npm: resolving slow-server \(1 metadata request\) — \d+ s$/.test(message)),
      ).toBe(true);
      // The last step is sent just before the result. Hub spaces them 15 ms apart, but a loaded
      // client that reads both in one chunk drops the progress (the SDK handles notifications a
      // microtask after responses), so only its place is asserted; the result says it anyway.
      const last = messages.indexOf('installed slow-server@1.2.3');
      expect(last === -1 || last === messages.length - 1).toBe(true);
      expect(JSON.stringify(result.content)).toContain('1.2.3');
      expect(messages.filter(message => message.includes('npm http'))).toEqual([]);
    });
  });

  test('cancelling the call while npm runs stops npm and leaves no folder or record', async () => {
    const home = await makeHubHome();
    const npm = fakeNpm(home, { FAKE_NPM_SLOW_MS: '20000' });
    await withHub(home, npm.env, async hub => {
      const controller = new AbortController();
      const pending = hub.client.callTool(
        { name: 'registry.install', arguments: { package: 'slow-server' } },
        undefined,
        {
          signal: controller.signal,
          onprogress: progress => {
            if (progress.message?.startsWith('npm: resolving slow-server (')) controller.abort();
          },
        },
      );
      await expect(pending).rejects.toThrow();
      await vi.waitFor(() => expect(childrenOf(hub.pid ?? 0)).toEqual([]), { timeout: 10_000, interval: 100 });
      await vi.waitFor(() => expect(existsSync(join(home, 'servers', 'slow'))).toBe(false), {
        timeout: 10_000,
        interval: 100,
      });
      expect(await dbServers(home)).toEqual({});
    });
  });

  test('install → ready with tools/list_changed → call → reinstall with env → uninstall', async () => {
    const home = await makeHubHome();
    const npm = fakeNpm(home);
    await withHub(home, npm.env, async hub => {
      let changes = 0;
      hub.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changes += 1;
      });
      const result = await hub.call('registry.install', { package: 'mcp-thing' });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ name: 'thing', state: 'ready', missingEnv: [] });
      expect((result.structuredContent as { tools: string[] }).tools).toContain('thing_echo');
      await vi.waitFor(() => expect(changes).toBeGreaterThan(0), { timeout: 10_000, interval: 50 });
      const names = (await hub.client.listTools()).tools.map(tool => tool.name);
      expect(names).toContain('thing_echo');
      expect(textOf(await hub.call('thing.echo', { message: 'hi' }))).toContain('hi');

      const again = await hub.call('registry.install', { package: 'mcp-thing', env: { TOKEN: 'x' } });
      expect(again.structuredContent).toMatchObject({ name: 'thing', state: 'ready' });
      expect(await npm.runs()).toHaveLength(1);

      const before = changes;
      const removed = await hub.call('registry.uninstall', { name: 'thing' });
      expect(removed.structuredContent).toMatchObject({ name: 'thing', folderRemoved: join(home, 'servers', 'thing') });
      await vi.waitFor(() => expect(changes).toBeGreaterThan(before), { timeout: 10_000, interval: 50 });
      expect((await hub.client.listTools()).tools.map(tool => tool.name)).not.toContain('thing_echo');
      expect(existsSync(join(home, 'servers', 'thing'))).toBe(false);
    });
  });
});
