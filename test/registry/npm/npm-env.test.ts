// npm's environment for one session (issue 27): the session's own, whole; the hub's PATH and
// HOME only where the session has none; the hub's own when there is no session environment.
import { expect, test } from 'vitest';
import { npmEnvironment } from '../../../src/registry/npm/env.js';

const hub = { PATH: '/hub/bin', HOME: '/home/hub', npm_config_registry: 'http://127.0.0.1:9/', SECRET: 'a' };

test("a session's environment, none of the hub's npm settings or other variables", () => {
  const env = npmEnvironment(
    {
      PATH: '/b/bin',
      HOME: '/home/b',
      npm_config_registry: 'https://b.test/',
      HTTPS_PROXY: 'http://p:1',
      GONE: undefined,
    },
    hub,
  );
  expect(env).toEqual({
    PATH: '/b/bin',
    HOME: '/home/b',
    npm_config_registry: 'https://b.test/',
    HTTPS_PROXY: 'http://p:1',
  });
});

test("an emptied session environment keeps the hub's PATH and HOME only", () => {
  expect(npmEnvironment({ NPM_CONFIG_CAFILE: '/ca.pem' }, hub)).toEqual({
    NPM_CONFIG_CAFILE: '/ca.pem',
    PATH: '/hub/bin',
    HOME: '/home/hub',
  });
});

test('no session environment: the hub runs npm with its own', () => {
  expect(npmEnvironment(undefined, hub)).toBeUndefined();
});
