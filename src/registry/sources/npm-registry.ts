// Which npm registry search talks to: HUB_NPM_REGISTRY, else npm's own setting, asked once.
import type { HubConfig } from '../../core/config/config.js';
import { HubError, errorMessage } from '../../core/errors.js';

// The npm registry search talks to: HUB_NPM_REGISTRY (config), else what npm itself is
// configured with. Never a hard-coded host: a company mirror or Verdaccio must be honoured.
export type NpmRegistryResolver = () => Promise<string>;

const withoutSlash = (url: string): string => url.trim().replace(/\/+$/, '');

/**
 * Resolves once, lazily: `npm config get registry` is only run the first time npm search is
 * used, and its promise is kept so concurrent searches share one npm process.
 */
export function createNpmRegistryResolver(
  config: Pick<HubConfig, 'npmRegistry'>,
  env: NodeJS.ProcessEnv = process.env,
): NpmRegistryResolver {
  let pending: Promise<string> | undefined;
  return () => {
    if (config.npmRegistry) return Promise.resolve(withoutSlash(config.npmRegistry));
    const fromEnv = env.npm_config_registry ?? env.NPM_CONFIG_REGISTRY;
    if (fromEnv) return Promise.resolve(withoutSlash(fromEnv));
    pending ??= askNpm(env);
    // A failed lookup is not cached: the next search asks again.
    pending.catch(() => (pending = undefined));
    return pending;
  };
}

async function askNpm(env: NodeJS.ProcessEnv): Promise<string> {
  try {
    // Loaded on first use: hub's start path does not need execa.
    const { execa } = await import('execa');
    const { stdout } = await execa('npm', ['config', 'get', 'registry'], {
      env,
      extendEnv: false,
      timeout: 10_000,
      stdin: 'ignore',
    });
    const url = withoutSlash(stdout.split('\n').pop() ?? '');
    if (!/^https?:\/\//.test(url)) throw new Error(`npm printed "${url}"`);
    return url;
  } catch (error) {
    throw new HubError(
      'REGISTRY_UNAVAILABLE',
      `Could not read the npm registry from \`npm config get registry\` (${errorMessage(error)}); set HUB_NPM_REGISTRY.`,
      { cause: error },
    );
  }
}
