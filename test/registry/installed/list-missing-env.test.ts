// registry.list never starts a server whose required env is missing, and shows what is missing.
// Built hub, fake npm (its packages run server-everything, which would start fine without a token).
import { expect, test } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, textOf } from '../../helpers/hub.js';
import { childrenOf, fakeNpm } from '../../helpers/install.js';

interface Listed {
  servers: Array<{ name: string; state: string; missingEnv?: string[] }>;
  tools?: unknown[];
  next: string;
}

test('registry.list { server } does not start a server without its required env, and both lists name what is missing', async () => {
  const home = await makeHubHome();
  const npm = fakeNpm(home);
  const hub = await spawnHub(home, { env: { ...npm.env, HUB_TOOL_NAMES: 'dotted' } });
  try {
    const installed = await hub.call('registry.install', { package: '@modelcontextprotocol/server-github@1.0.0' });
    expect(installed.structuredContent).toMatchObject({ name: 'github', missingEnv: ['GITHUB_PERSONAL_ACCESS_TOKEN'] });

    const one = await hub.call('registry.list', { server: 'github' });
    expect(one.isError, textOf(one)).toBeFalsy();
    const detail = one.structuredContent as unknown as Listed;
    expect(detail.servers[0]).toMatchObject({
      name: 'github',
      state: 'stopped',
      missingEnv: ['GITHUB_PERSONAL_ACCESS_TOKEN'],
    });
    expect(detail.tools).toEqual([]);
    expect(detail.next).toMatch(
      /^Not started: it needs GITHUB_PERSONAL_ACCESS_TOKEN\. Call registry\.install \{ package: "@modelcontextprotocol\/server-github", name: "github", env: \{ "GITHUB_PERSONAL_ACCESS_TOKEN": "…" \} \}/,
    );
    expect(childrenOf(hub.pid ?? 0)).toEqual([]);

    const all = (await hub.call('registry.list')).structuredContent as unknown as Listed;
    expect(all.servers).toEqual([
      expect.objectContaining({ name: 'github', missingEnv: ['GITHUB_PERSONAL_ACCESS_TOKEN'] }),
    ]);
    expect(textOf(await hub.call('registry.list'))).toContain('missing env: GITHUB_PERSONAL_ACCESS_TOKEN');

    // With the token it starts and lists its tools, and nothing is missing any more.
    const fixed = await hub.call('registry.install', {
      package: '@modelcontextprotocol/server-github',
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'x' },
    });
    expect(fixed.isError, textOf(fixed)).toBeFalsy();
    const ready = (await hub.call('registry.list', { server: 'github' })).structuredContent as unknown as Listed;
    expect(ready.servers[0]?.missingEnv).toBeUndefined();
    expect(ready.tools?.length).toBeGreaterThan(0);
  } finally {
    await hub.close();
  }
});
