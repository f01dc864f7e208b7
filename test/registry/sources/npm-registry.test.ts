// Where npm search goes: config first, then npm_config_registry, then `npm config get registry`
// (a real npm run against a user config file), asked once.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { silentLogger } from '../../../src/core/logger.js';
import { createNpmRegistryResolver } from '../../../src/registry/sources/npm-registry.js';
import { searchNpm } from '../../../src/registry/sources/npm.js';
import { makeHubHome } from '../../helpers/home.js';
import { startRegistryServer, type RegistryServer } from '../../helpers/registry-server.js';

let registry: RegistryServer | undefined;
afterEach(async () => {
  await registry?.close();
  registry = undefined;
});

const baseEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

describe('npm registry resolution', () => {
  test('config wins over the environment, and trailing slashes are dropped', async () => {
    const resolve = createNpmRegistryResolver(
      { npmRegistry: 'http://127.0.0.1:1/from-config/' },
      { ...baseEnv, npm_config_registry: 'http://127.0.0.1:2/' },
    );
    await expect(resolve()).resolves.toBe('http://127.0.0.1:1/from-config');
  });

  test('npm_config_registry is used when config has none', async () => {
    const resolve = createNpmRegistryResolver(
      { npmRegistry: undefined },
      { ...baseEnv, npm_config_registry: 'http://127.0.0.1:2/mirror/' },
    );
    await expect(resolve()).resolves.toBe('http://127.0.0.1:2/mirror');
  });

  test('otherwise npm is asked once, and npm search then reaches that registry', async () => {
    registry = await startRegistryServer();
    const home = await makeHubHome();
    const userConfig = join(home, 'npmrc');
    await writeFile(userConfig, `registry=${registry.npmRegistry}/\n`);
    const resolve = createNpmRegistryResolver(
      { npmRegistry: undefined },
      { ...baseEnv, HOME: home, NPM_CONFIG_USERCONFIG: userConfig },
    );
    const first = resolve();
    expect(resolve()).toBe(first); // one npm process for concurrent searches
    await expect(first).resolves.toBe(registry.npmRegistry);

    const found = await searchNpm({
      registry: await first,
      query: 'memory',
      limit: 10,
      signal: AbortSignal.timeout(4_000),
      log: silentLogger,
    });
    expect(found.map(candidate => candidate.package)).toContain('memory-mcp-lite');
  });

  test('a failing npm is a clear REGISTRY_UNAVAILABLE that names HUB_NPM_REGISTRY', async () => {
    const resolve = createNpmRegistryResolver({ npmRegistry: undefined }, { PATH: '/nonexistent' });
    await expect(resolve()).rejects.toMatchObject({
      code: 'REGISTRY_UNAVAILABLE',
      message: expect.stringMatching(/HUB_NPM_REGISTRY/),
    });
  });
});
